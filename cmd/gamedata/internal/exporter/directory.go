package exporter

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gamedata-go/gamedata"
)

// pageSize is the largest page the service serves: the fewest requests a
// walk.
const pageSize = 100

// sortPlayers is the sort --top asks for. The service does not document
// its sorts, so the order that comes back is checked.
const sortPlayers = "players"

// slice is one walk of the directory: a kind (or none) and the filters,
// all of it or its Top entries by players.
type slice struct {
	client  *gamedata.Client
	kind    string
	filters []string
	top     int
	// limit stops a walk after this many entries: each is at least one
	// series, so more would be beyond the series cap anyway.
	limit int
	log   *slog.Logger
	// unsorted is set once the service has answered a players sort in
	// another order: from then on --top reads the whole slice.
	unsorted atomic.Bool
}

func (s *slice) options(sort string, page int) *gamedata.DashboardOptions {
	return &gamedata.DashboardOptions{Kind: s.kind, ListOptions: gamedata.ListOptions{
		Sort: sort, Page: page, PageSize: pageSize, Filters: s.filters,
	}}
}

// KindError says that the service answered a walk of --kind Asked with an
// entry of another kind, Got: it does not list that kind and normalized
// it to its default directory, as it does with what it does not support.
type KindError struct {
	Asked string
	// Got is the other entry's kind, sanitized, or "server" for a
	// dedicated server.
	Got string
}

func (e *KindError) Error() string {
	return fmt.Sprintf("--kind %q: the service does not list that kind; it answered with its default directory (an entry of kind %q); choose a kind it lists, such as game, or server for dedicated servers",
		e.Asked, e.Got)
}

// ofKind returns a *KindError when e is not of the kind the slice asked
// for.
func (s *slice) ofKind(e gamedata.DashboardEntry) error {
	switch {
	case s.kind == "", s.kind == "server" && e.IsServer(), !e.IsServer() && e.Kind == s.kind:
		return nil
	case e.IsServer():
		return &KindError{Asked: s.kind, Got: "server"}
	}
	return &KindError{Asked: s.kind, Got: labelValue(e.Kind)}
}

func (s *slice) fetch(ctx context.Context) (part, error) {
	if s.top == 0 {
		return s.all(ctx)
	}
	if !s.unsorted.Load() {
		items, sorted, err := s.topSorted(ctx)
		if err != nil || sorted {
			return part{items: items}, err
		}
		s.unsorted.Store(true)
		s.log.Warn("the service did not sort the directory by players; --top now reads the whole slice every poll", "slice", s.String())
	}
	items, err := s.topScan(ctx)
	return part{items: items}, err
}

// all walks the whole slice, up to limit entries.
func (s *slice) all(ctx context.Context) (part, error) {
	var p part
	for e, err := range s.client.Dashboard.All(ctx, s.options("", 0), nil, noteAttempts) {
		if err == nil {
			err = s.ofKind(e)
		}
		if err != nil {
			return part{}, err
		}
		if len(p.items) == s.limit {
			p.cut = true
			break
		}
		p.items = append(p.items, entryItem(e))
	}
	return p, nil
}

// topSorted reads the first pages of the slice sorted by players, as
// many as top entries need, and reports whether each page came in that
// order (nulls last); when one did not, the service ignored the sort and
// the items are not the top. Entries that move between pages while they
// are read are taken once.
func (s *slice) topSorted(ctx context.Context) (items []item, sorted bool, err error) {
	seen := make(map[[sha256.Size]byte]bool)
	for page := 1; len(items) < s.top; page++ {
		p, err := s.client.Dashboard.List(ctx, s.options(sortPlayers, page), noteAttempts)
		if errors.Is(err, gamedata.ErrPageOutOfRange) && page > 1 {
			break // the directory shrank since the last page said there was more
		}
		if err != nil {
			return nil, false, err
		}
		for _, e := range p.Items {
			if err := s.ofKind(e); err != nil {
				return nil, false, err
			}
		}
		if !slices.IsSortedFunc(p.Items, byPlayersDesc) {
			return nil, false, nil
		}
		fresh := 0
		for _, e := range p.Items {
			it := entryItem(e)
			if seen[it.identity] || len(items) == s.top {
				continue
			}
			seen[it.identity] = true
			fresh++
			items = append(items, it)
		}
		if !p.Pagination.HasNext || fresh == 0 {
			break // the end, or a service that ignores the page
		}
	}
	return items, true, nil
}

// topScan walks the whole slice and keeps the top entries by players,
// holding at most twice as many at a time.
func (s *slice) topScan(ctx context.Context) ([]item, error) {
	var items []item
	keep := func() {
		slices.SortStableFunc(items, func(a, b item) int { return -cmp.Compare(rank(a.players), rank(b.players)) })
		items = items[:min(len(items), s.top)]
	}
	for e, err := range s.client.Dashboard.All(ctx, s.options("", 0), nil, noteAttempts) {
		if err == nil {
			err = s.ofKind(e)
		}
		if err != nil {
			return nil, err
		}
		if items = append(items, entryItem(e)); len(items) >= 2*s.top {
			keep()
		}
	}
	keep()
	return slices.Clip(items), nil
}

// byPlayersDesc orders entries by players, most first, nulls last.
func byPlayersDesc(a, b gamedata.DashboardEntry) int {
	return -cmp.Compare(rank(a.Metric("players")), rank(b.Metric("players")))
}

// rank ranks an entry by its players: their number, or -Inf when they
// are null or not a number.
func rank(players gamedata.Nullable[float64]) float64 {
	return players.Or(math.Inf(-1))
}

// String names the slice by its flags, for log lines.
func (s *slice) String() string {
	var b strings.Builder
	b.WriteString("directory")
	if s.kind != "" {
		fmt.Fprintf(&b, " --kind %s", s.kind)
	}
	for _, f := range s.filters {
		fmt.Fprintf(&b, " --filter %s", f)
	}
	if s.top > 0 {
		fmt.Fprintf(&b, " --top %d", s.top)
	}
	return b.String()
}
