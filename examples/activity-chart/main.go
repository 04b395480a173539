// Command activity-chart draws the service's player activity history, and
// optionally one package's analytics history, as an SVG file.
//
//	go run ./examples/activity-chart -o chart.svg
//	go run ./examples/activity-chart -range 30d -package game/space-miner -o chart.svg
//
// A null player count is unavailable, not zero: the line breaks there and a
// grey band marks the gap. Points with partial coverage (totals that may miss
// games that were not recorded, so lower bounds) sit on an orange band.
//
// Without -base-url it starts an in-process twin of the service
// (gamedatatest) and says so on stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/examples/internal/cli"
)

func main() { cli.Main("activity-chart", run) }

// run is the whole program, with its arguments and outputs passed in.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("activity-chart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", "", "base URL of the service; empty starts an in-process twin")
	out := fs.String("o", "chart.svg", `SVG file to write; "-" writes to stdout`)
	rng := fs.String("range", gamedata.Range7d, "activity range, such as 24h, 7d or 30d")
	pkg := fs.String("package", "", "also chart this package's analytics history, as kind/ident")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var kind, ident string
	if *pkg != "" {
		var ok bool
		kind, ident, ok = strings.Cut(*pkg, "/")
		if !ok || kind == "" || ident == "" {
			return fmt.Errorf("-package %q: want kind/ident, such as game/space-miner", *pkg)
		}
	}

	client, _, stop, err := cli.Connect("activity-chart", *baseURL, stderr)
	if err != nil {
		return err
	}
	defer stop()

	var panels []panel
	h, err := client.Activity.History(ctx, &gamedata.ActivityOptions{Range: *rng})
	if err != nil {
		return fmt.Errorf("activity history: %w", err)
	}
	panels = append(panels, activityPanel(h, *rng))
	if *pkg != "" {
		report, err := client.Analytics.Package(ctx, kind, ident)
		if err != nil {
			return fmt.Errorf("analytics of %s: %w", *pkg, err)
		}
		panels = append(panels, reportPanel(report))
	}

	svg := render(panels)
	if *out == "-" {
		_, err = stdout.Write(svg)
		return err
	}
	if err := os.WriteFile(*out, svg, 0o644); err != nil {
		return err
	}
	for _, p := range panels {
		fmt.Fprintf(stdout, "%s: %d points, %d unavailable, %d with partial coverage\n", p.title, len(p.points), p.nulls(), p.partials())
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// activityPanel charts the activity history. The range shown is the one
// the service answered with, which may differ from the one asked for.
func activityPanel(h *gamedata.ActivityHistory, asked string) panel {
	rng := asked
	if u, ok := h.Fields.Text("range"); ok {
		rng = u.String()
	}
	p := panel{id: "activity", title: "Players online, range " + rng}
	for _, pt := range h.Points {
		v, ok := pt.Players.Get()
		p.points = append(p.points, point{t: pt.Time, v: v, ok: ok, partial: pt.PartialCoverage, current: pt.Current})
	}
	return p
}

// reportPanel charts a package's analytics history. The title is publisher
// text: it goes through Untrusted.String.
func reportPanel(r *gamedata.PackageReport) panel {
	name := r.Kind + "/" + r.Ident
	if u, ok := r.Fields.Text("title"); ok {
		name = u.String() + " (" + name + ")"
	}
	p := panel{id: "package", title: "Average players of " + name}
	for _, e := range r.History {
		v, ok := e.Fields.Metric("players").Get()
		p.points = append(p.points, point{t: e.CapturedAt, v: v, ok: ok, partial: e.PartialCoverage})
	}
	return p
}
