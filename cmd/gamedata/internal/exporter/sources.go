package exporter

import (
	"context"

	"github.com/gamedata-go/gamedata"
)

// source is one thing a poll reads: a directory slice, a record, or the
// platform's activity.
type source struct {
	// name says what it is in a log line; it holds the user's flags, not
	// the service's text.
	name string
	// record is true for a package or server named by the user, whose
	// 404 means it is gone rather than that the poll failed.
	record bool
	fetch  func(ctx context.Context) (part, error)
}

// sources are what a poll of c reads, in the order they claim series
// under the cap: what the user named first, then the directory, then the
// activity.
func sources(c *gamedata.Client, cfg *Config) []source {
	var out []source
	for _, ref := range cfg.Packages {
		out = append(out, source{name: "package " + ref.Kind + "/" + ref.Ident, record: true,
			fetch: func(ctx context.Context) (part, error) {
				p, err := c.Packages.Get(ctx, ref.Kind, ref.Ident, noteAttempts)
				if err != nil {
					return part{}, err
				}
				return part{items: []item{packageItem(ref.Kind, ref.Ident, p.Fields)}}, nil
			}})
	}
	for _, id := range cfg.Servers {
		out = append(out, source{name: "server " + id, record: true,
			fetch: func(ctx context.Context) (part, error) {
				s, err := c.Servers.Get(ctx, id, noteAttempts)
				if err != nil {
					return part{}, err
				}
				return part{items: []item{serverItem(id, s.Fields)}}, nil
			}})
	}
	if cfg.walksDirectory() {
		kinds := cfg.Kinds
		if len(kinds) == 0 {
			kinds = []string{""}
		}
		walked := make(map[string]bool)
		for _, kind := range kinds {
			if walked[kind] {
				continue // a kind given twice is walked once
			}
			walked[kind] = true
			s := &slice{client: c, kind: kind, filters: cfg.Filters, top: cfg.Top, limit: cfg.MaxSeries, log: cfg.logger()}
			out = append(out, source{name: s.String(), fetch: s.fetch})
		}
	}
	out = append(out, source{name: "activity", fetch: func(ctx context.Context) (part, error) {
		h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: gamedata.Range7d}, noteAttempts)
		if err != nil {
			return part{}, err
		}
		return part{activity: latest(h.Points)}, nil
	}})
	return out
}

// latest is the point with the greatest time, the last of equals; nil
// for none.
func latest(points []gamedata.ActivityPoint) *gamedata.ActivityPoint {
	var last *gamedata.ActivityPoint
	for i := range points {
		if last == nil || !points[i].Time.Before(last.Time) {
			last = &points[i]
		}
	}
	if last == nil {
		return nil
	}
	p := *last // not a pointer into the history, which can then be freed
	return &p
}
