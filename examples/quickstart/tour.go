package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
)

// tour calls every endpoint once (the organization directory through a
// whole walk) and prints what came back, a section a step.
func tour(ctx context.Context, c *gamedata.Client, w io.Writer) error {
	st := &tourState{}
	for _, step := range []func(context.Context, *gamedata.Client, io.Writer, *tourState) error{
		dashboard, search, packageRecord, server, organizations, organization,
		activityStep, analyticsSearch, packageAnalytics, organizationAnalytics, openAPI,
	} {
		if err := step(ctx, c, w, st); err != nil {
			return err
		}
	}
	return nil
}

// tourState is what the steps of the tour found for the steps after them.
type tourState struct {
	game     gamedata.DashboardEntry
	servers  []gamedata.DashboardEntry
	pkg      *gamedata.Package
	orgs     []gamedata.Organization
	orgIdent string
}

func dashboard(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	// Directory first: the service recommends obtaining identifiers there.
	games, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{Sort: "players", PageSize: 5}})
	if err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	fmt.Fprintf(w, "== Dashboard: top %s by players (page %d, more pages: %t)\n",
		count(len(games.Items), "game"), games.Pagination.Page, games.Pagination.HasNext)
	for _, e := range games.Items {
		fmt.Fprintf(w, "  - %-28s %-32s players %s\n", safe(e.Kind+"/"+e.Ident), text(e.Fields, "title"), metric(e.Fields, "players"))
	}
	if len(games.Items) == 0 {
		return errors.New("dashboard: no games to tour")
	}
	st.game = games.Items[0]

	servers, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{Kind: "server", ListOptions: gamedata.ListOptions{PageSize: 3}})
	if err != nil {
		return fmt.Errorf("dashboard servers: %w", err)
	}
	fmt.Fprintf(w, "\n== Dashboard: first %s\n", count(len(servers.Items), "dedicated server"))
	for _, e := range servers.Items {
		fmt.Fprintf(w, "  - %-22s %s\n", safe(e.ID), text(e.Fields, "name"))
	}
	st.servers = servers.Items
	return nil
}

func search(ctx context.Context, c *gamedata.Client, w io.Writer, _ *tourState) error {
	found, err := c.Search(ctx, &gamedata.SearchOptions{Query: "miner"})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	// Every hit is listed, so that each count says what follows it.
	fmt.Fprintf(w, "\n== Search %q: %s, %s, %s\n", "miner",
		count(len(found.Packages), "package"), count(len(found.Servers), "server"), count(len(found.Organizations), "organization"))
	for _, p := range found.Packages {
		fmt.Fprintf(w, "  - package      %-32s %s\n", safe(p.Kind+"/"+p.Ident), text(p.Fields, "title"))
	}
	for _, v := range found.Servers {
		fmt.Fprintf(w, "  - server       %-32s %s\n", safe(v.ID), text(v.Fields, "name"))
	}
	for _, o := range found.Organizations {
		fmt.Fprintf(w, "  - organization %-32s %s\n", safe(o.Ident), text(o.Fields, "name"))
	}
	return nil
}

func packageRecord(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	pkg, err := c.Packages.Get(ctx, st.game.Kind, st.game.Ident)
	if err != nil {
		return fmt.Errorf("package: %w", err)
	}
	fmt.Fprintf(w, "\n== Package %s\n", safe(pkg.Kind+"/"+pkg.Ident))
	fmt.Fprintf(w, "  title:        %s\n", text(pkg.Fields, "title"))
	fmt.Fprintf(w, "  players:      %s (peak %s)\n", metric(pkg.Fields, "players"), metric(pkg.Fields, "playersPeak"))
	fmt.Fprintf(w, "  description:  %s\n", clip(text(pkg.Fields, "description"), 70))
	fmt.Fprintf(w, "  update notes: %s\n", clip(text(pkg.Fields, "updateNotes"), 70))
	st.pkg = pkg
	return nil
}

func server(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	if len(st.servers) == 0 {
		return nil
	}
	srv, err := c.Servers.Get(ctx, st.servers[0].ID)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	fmt.Fprintf(w, "\n== Server %s\n", safe(srv.ID))
	fmt.Fprintf(w, "  name:    %s\n", text(srv.Fields, "name"))
	fmt.Fprintf(w, "  players: %s of %s\n", metric(srv.Fields, "players"), metric(srv.Fields, "maxPlayers"))
	return nil
}

func organizations(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	orgs, err := c.Organizations.List(ctx, &gamedata.ListOptions{PageSize: 3})
	if err != nil {
		return fmt.Errorf("organizations: %w", err)
	}
	fmt.Fprintf(w, "\n== Organizations: first page, %s\n", count(len(orgs.Items), "organization"))
	for _, o := range orgs.Items {
		fmt.Fprintf(w, "  - %-22s %s\n", safe(o.Ident), text(o.Fields, "name"))
	}
	walked := 0
	for _, err := range c.Organizations.All(ctx, &gamedata.ListOptions{PageSize: 100}, nil) {
		if err != nil {
			return fmt.Errorf("organizations walk: %w", err)
		}
		walked++
	}
	fmt.Fprintf(w, "  a walk of every page found %d organizations\n", walked)
	st.orgs = orgs.Items
	return nil
}

func organization(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	if raw, ok := st.pkg.Fields.Raw("organization"); ok {
		_ = json.Unmarshal(raw, &st.orgIdent) // null leaves it empty
	}
	if st.orgIdent == "" && len(st.orgs) > 0 {
		st.orgIdent = st.orgs[0].Ident
	}
	if st.orgIdent == "" {
		return nil
	}
	org, err := c.Organizations.Get(ctx, st.orgIdent)
	if err != nil {
		return fmt.Errorf("organization: %w", err)
	}
	var detail struct{ Packages []json.RawMessage }
	if err := org.Fields.Decode(&detail); err != nil {
		return fmt.Errorf("organization: %w", err)
	}
	fmt.Fprintf(w, "\n== Organization %s\n  name: %s, %d packages\n", safe(org.Ident), text(org.Fields, "name"), len(detail.Packages))
	return nil
}

func activityStep(ctx context.Context, c *gamedata.Client, w io.Writer, _ *tourState) error {
	return activity(ctx, c, w)
}

func analyticsSearch(ctx context.Context, c *gamedata.Client, w io.Writer, _ *tourState) error {
	hits, err := c.Analytics.Search(ctx, &gamedata.SearchOptions{Query: "neon"})
	if err != nil {
		return fmt.Errorf("analytics search: %w", err)
	}
	fmt.Fprintf(w, "\n== Analytics search %q: %s, %s\n", "neon",
		count(len(hits.Packages), "package"), count(len(hits.Organizations), "organization"))
	for _, p := range hits.Packages {
		fmt.Fprintf(w, "  - package      %-32s %s\n", safe(p.Kind+"/"+p.Ident), text(p.Fields, "title"))
	}
	for _, o := range hits.Organizations {
		fmt.Fprintf(w, "  - organization %-32s %s\n", safe(o.Ident), text(o.Fields, "name"))
	}
	return nil
}

func packageAnalytics(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	report, err := c.Analytics.Package(ctx, st.game.Kind, st.game.Ident)
	if err != nil {
		return fmt.Errorf("package analytics: %w", err)
	}
	fmt.Fprintf(w, "\n== Package analytics %s\n", safe(report.Kind+"/"+report.Ident))
	printHistory(w, report.History, report.Fields)
	return nil
}

func organizationAnalytics(ctx context.Context, c *gamedata.Client, w io.Writer, st *tourState) error {
	if st.orgIdent == "" {
		return nil
	}
	report, err := c.Analytics.Organization(ctx, st.orgIdent)
	if err != nil {
		return fmt.Errorf("organization analytics: %w", err)
	}
	fmt.Fprintf(w, "\n== Organization analytics %s\n", safe(report.Ident))
	printHistory(w, report.History, report.Fields)
	return nil
}

func openAPI(ctx context.Context, c *gamedata.Client, w io.Writer, _ *tourState) error {
	doc, err := c.OpenAPI(ctx)
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	var spec struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &spec); err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	fmt.Fprintf(w, "\n== OpenAPI document: version %s, %d paths\n", safe(spec.OpenAPI), len(spec.Paths))
	return nil
}

func activity(ctx context.Context, c *gamedata.Client, w io.Writer) error {
	h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: gamedata.Range7d})
	if err != nil {
		return fmt.Errorf("activity: %w", err)
	}
	var nulls, averages, partial int
	for _, p := range h.Points {
		if p.Players.IsNull() {
			nulls++
		}
		if p.Aggregation == gamedata.AggregationAverage {
			averages++
		}
		if p.PartialCoverage {
			partial++
		}
	}
	fmt.Fprintf(w, "\n== Activity history, %s: %d points (%d averages, %d with partial coverage, %d unavailable)\n",
		gamedata.Range7d, len(h.Points), averages, partial, nulls)
	if n := len(h.Points); n > 0 {
		last := h.Points[n-1]
		fmt.Fprintf(w, "  latest: %s players at %s (current: %t)\n", nullable(last.Players), last.Time.Format(time.RFC3339), last.Current)
	}
	fmt.Fprintf(w, "  as a chart: gamedata chart activity --range %s --out week.svg (cmd/gamedata)\n", gamedata.Range7d)
	return nil
}

func printHistory(w io.Writer, history []gamedata.HistoryEntry, report gamedata.Fields) {
	var partial int
	for _, e := range history {
		if e.PartialCoverage {
			partial++
		}
	}
	fmt.Fprintf(w, "  %d history entries, %d with partial coverage\n", len(history), partial)
	if n := len(history); n > 0 {
		e := history[n-1]
		fmt.Fprintf(w, "  latest: %s players at %s\n", metric(e.Fields, "players"), e.CapturedAt.UTC().Format(time.RFC3339))
	}
	var summary map[string]struct {
		Average         gamedata.Nullable[float64] `json:"average"`
		PartialCoverage bool                       `json:"partialCoverage"`
	}
	if raw, ok := report.Raw("summary"); ok && json.Unmarshal(raw, &summary) == nil {
		if s, ok := summary[gamedata.Range7d]; ok {
			note := ""
			if s.PartialCoverage {
				note = " (partial coverage: a lower bound)"
			}
			fmt.Fprintf(w, "  7-day average: %s%s\n", nullable(s.Average), note)
		}
	}
}

// text is a member as safe text: untrusted publisher text goes through
// Untrusted.String, always.
func text(f gamedata.Fields, name string) string {
	u, ok := f.Text(name)
	if !ok {
		return "-"
	}
	return u.String()
}

// safe is an identifier or other text the service chose, through
// Untrusted.String like every member: a kind, an ident or an id may hold a
// terminal escape as well as a title may.
func safe(s string) string { return gamedata.NewUntrusted(s).String() }

// metric formats a numeric member; null is "unavailable", never zero.
func metric(f gamedata.Fields, name string) string { return nullable(f.Metric(name)) }

func nullable(n gamedata.Nullable[float64]) string {
	if v, ok := n.Get(); ok {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	if n.IsNull() {
		return "unavailable"
	}
	return "-"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// count is n things, in the singular for one.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
