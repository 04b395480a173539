package gamedatatest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests below state the invariants of doc.go ("Consistency") over
// whole catalogues: the default one, other seeds and sizes, and one that
// Advance moved on.

// figures is what a consistency test reads of a catalogue, decoded from the
// bodies the twin serves.
type figures struct {
	now      time.Time
	advanced bool
	packages []packageFigures
	servers  []serverFigures
	orgs     []orgFigures
	current  map[string]*float64 // the players of each activity range's current point
	week     []activityPoint     // the 7d activity points
}

type packageFigures struct {
	Kind        string   `json:"kind"`
	Ident       string   `json:"ident"`
	Players     *float64 `json:"players"`
	PlayersPeak *float64 `json:"playersPeak"`
	report      analyticsReport
}

type serverFigures struct {
	ID      string   `json:"id"`
	Players *float64 `json:"players"`
	Package *struct {
		Kind  string `json:"kind"`
		Ident string `json:"ident"`
	} `json:"package"`
}

type orgFigures struct {
	Ident    string `json:"ident"`
	Packages []struct {
		Kind  string `json:"kind"`
		Ident string `json:"ident"`
	} `json:"packages"`
	report analyticsReport
}

type analyticsReport struct {
	History []historyFigures          `json:"history"`
	Summary map[string]summaryFigures `json:"summary"`
}

type historyFigures struct {
	CapturedAt      time.Time `json:"capturedAt"`
	Players         *float64  `json:"players"`
	PlayersPeak     *float64  `json:"playersPeak"`
	PartialCoverage bool      `json:"partialCoverage"`
}

type summaryFigures struct {
	Average         *float64 `json:"average"`
	Peak            *float64 `json:"peak"`
	PartialCoverage bool     `json:"partialCoverage"`
}

type activityPoint []*float64 // the seven elements; players is [1]

var summarySpans = map[string]time.Duration{"24h": day, "7d": 7 * day, "30d": 30 * day, "90d": 90 * day}

// consistencyCase is a catalogue the invariants are checked over; its
// figures are read once and shared by the tests.
type consistencyCase struct {
	name    string
	opts    []Option
	advance time.Duration
	read    func() (*figures, error)
}

// consistencyCases are the catalogues every invariant is checked over.
// Only the default one has the default size: the invariants hold entity
// by entity, and reading a catalogue's every report is most of these
// tests' time, so the others are as small as what they stand for allows.
var consistencyCases = []*consistencyCase{
	{name: "default"},
	{name: "seed 7, 40 packages an organization", opts: []Option{WithSeed(7), WithSize(120, 60, 4)}},
	{name: "seed 42, awkward idents", opts: []Option{WithSeed(42), WithSize(40, 10, 3), WithAwkwardIdents()}},
	{name: "seed 3, crowded servers", opts: []Option{WithSeed(3), WithSize(8, 400, 2)}},
	{name: "seed 9, 500 history points", opts: []Option{WithSeed(9), WithSize(120, 30, 6), WithHistoryPoints(500)}},
	{name: "default seed, 80 packages, advanced 10 days 7 hours", opts: []Option{WithSize(80, 40, 10)}, advance: 10*day + 7*time.Hour},
}

func init() {
	for _, c := range consistencyCases {
		c.read = sync.OnceValues(func() (*figures, error) {
			s := NewServer(c.opts...)
			defer s.Close()
			s.Advance(c.advance)
			return readFigures(s.Catalog(), c.advance > 0)
		})
	}
}

// forEachCatalog runs check on the figures of every consistency case.
func forEachCatalog(t *testing.T, check func(t *testing.T, f *figures)) {
	t.Helper()
	for _, c := range consistencyCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f, err := c.read()
			require.NoError(t, err)
			check(t, f)
		})
	}
}

// readFigures decodes what a consistency test reads of c.
func readFigures(c *Catalog, advanced bool) (*figures, error) {
	f := &figures{now: c.Now, advanced: advanced, current: map[string]*float64{}}
	for _, e := range c.Packages {
		var p packageFigures
		if err := errors.Join(json.Unmarshal(e.JSON(), &p), json.Unmarshal(c.PackageReport(e.Kind, e.Ident), &p.report)); err != nil {
			return nil, err
		}
		f.packages = append(f.packages, p)
	}
	for _, e := range c.Servers {
		var v serverFigures
		if err := json.Unmarshal(e.JSON(), &v); err != nil {
			return nil, err
		}
		f.servers = append(f.servers, v)
	}
	for _, e := range c.Organizations {
		var o orgFigures
		if err := errors.Join(json.Unmarshal(c.Organization(e.Ident), &o), json.Unmarshal(c.OrganizationReport(e.Ident), &o.report)); err != nil {
			return nil, err
		}
		f.orgs = append(f.orgs, o)
	}
	var week struct{ Points []activityPoint }
	if err := json.Unmarshal(c.ActivityHistory("7d"), &week); err != nil {
		return nil, err
	}
	f.week = week.Points
	for _, h := range activityRanges {
		// Only the last point is read: decoding the 35,040 points of
		// "all" for every catalogue would make the test slow.
		body := c.ActivityHistory(h)
		end := bytes.LastIndex(body, []byte(`]],"partialCoverage"`))
		start := bytes.LastIndexByte(body[:max(end, 0)], '[')
		if end < 0 || start < 0 {
			return nil, fmt.Errorf("%s: no points in %.100s", h, body)
		}
		var last activityPoint
		if err := json.Unmarshal(body[start:end+1], &last); err != nil {
			return nil, fmt.Errorf("%s: %w", h, err)
		}
		if len(last) != 7 || last[2] == nil || *last[2] != 1 {
			return nil, fmt.Errorf("%s: the last point %s is not the current one", h, body[start:end+1])
		}
		f.current[h] = last[1]
	}
	return f, nil
}

// covered are the entries of a summary range: those captured at most span
// before now.
func (r *analyticsReport) covered(now time.Time, span time.Duration) []historyFigures {
	var out []historyFigures
	for _, e := range r.History {
		if !e.CapturedAt.Before(now.Add(-span)) {
			out = append(out, e)
		}
	}
	return out
}

// near reports whether current is in the neighbourhood of average: within
// a factor of three, give or take one player.
func near(current, average float64) bool {
	return current >= average/3-1 && current <= 3*average+1
}

func TestPeaksBoundWhatTheyCover(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		// Plain comparisons, not assertions: they run for every entry of
		// every history.
		for _, p := range f.packages {
			for _, e := range p.report.History {
				if e.Players != nil && e.PlayersPeak != nil && *e.PlayersPeak < *e.Players {
					t.Errorf("%s/%s on %s: a day's peak %v below its average %v", p.Kind, p.Ident, e.CapturedAt, *e.PlayersPeak, *e.Players)
				}
			}
			if p.PlayersPeak == nil {
				continue
			}
			peak := *p.PlayersPeak
			if p.Players != nil && peak < *p.Players {
				t.Errorf("%s/%s: playersPeak %v below the current players %v", p.Kind, p.Ident, peak, *p.Players)
			}
			for _, e := range p.report.History {
				for _, v := range []*float64{e.Players, e.PlayersPeak} {
					if v != nil && peak < *v {
						t.Errorf("%s/%s: playersPeak %v below its history's %v on %s", p.Kind, p.Ident, peak, *v, e.CapturedAt)
					}
				}
			}
		}
	})
}

func TestCurrentPlayersNearTheirHistory(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		checked := 0
		for _, p := range f.packages {
			if p.Players == nil {
				continue
			}
			current := *p.Players
			if week := p.report.Summary["7d"].Average; week != nil {
				checked++
				assert.True(t, near(current, *week), "%s/%s: %v players now, a 7-day average of %v", p.Kind, p.Ident, current, *week)
			}
			for i := len(p.report.History) - 1; i >= 0; i-- {
				if latest := p.report.History[i].Players; latest != nil {
					assert.True(t, near(current, *latest), "%s/%s: %v players now, %v on %s", p.Kind, p.Ident, current, *latest, p.report.History[i].CapturedAt)
					break
				}
			}
		}
		assert.Positive(t, checked)
	})
}

func TestSummariesSumUpWhatTheyCover(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		reports := map[string]analyticsReport{}
		for _, p := range f.packages {
			reports["package "+p.Kind+"/"+p.Ident] = p.report
		}
		for _, o := range f.orgs {
			reports["organization "+o.Ident] = o.report
		}
		for name, r := range reports {
			for rng, span := range summarySpans {
				sm, ok := r.Summary[rng]
				require.True(t, ok, "%s: a %s summary", name, rng)
				checkSummary(t, name+" "+rng, sm, r.covered(f.now, span))
			}
		}
	})
}

// checkSummary checks a range summary against the entries it covers: the
// average of the known players (nulls left out, not counted as 0), between
// their least and greatest; the peak the greatest known value; partial
// coverage when any entry has it.
func checkSummary(t *testing.T, what string, sm summaryFigures, covered []historyFigures) {
	t.Helper()
	var sum, n float64
	least, most := math.Inf(1), math.Inf(-1)
	var highest *float64
	partial := false
	for _, e := range covered {
		partial = partial || e.PartialCoverage
		if e.Players != nil {
			sum, n = sum+*e.Players, n+1
			least, most = min(least, *e.Players), max(most, *e.Players)
		}
		for _, v := range []*float64{e.Players, e.PlayersPeak} {
			if v != nil && (highest == nil || *v > *highest) {
				highest = v
			}
		}
	}
	assert.Equal(t, partial, sm.PartialCoverage, "%s: partial coverage of %d entries", what, len(covered))
	if n == 0 {
		assert.Nil(t, sm.Average, "%s: no known players, no average", what)
	} else if assert.NotNil(t, sm.Average, "%s: an average of %v known players", what, n) {
		avg := *sm.Average
		assert.InDelta(t, sum/n, avg, 0.0005+1e-9, "%s: the mean of the known players", what)
		assert.True(t, avg >= least && avg <= most, "%s: average %v outside [%v, %v]", what, avg, least, most)
	}
	if highest == nil {
		assert.Nil(t, sm.Peak, "%s: no known value, no peak", what)
	} else if assert.NotNil(t, sm.Peak, "%s: a peak", what) {
		assert.Equal(t, *highest, *sm.Peak, "%s: the greatest value covered", what)
	}
}

func TestOrganizationsSumUpTheirPackages(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		week := map[pkgKey]float64{}
		for _, p := range f.packages {
			if avg := p.report.Summary["7d"].Average; avg != nil {
				week[pkgKey{p.Kind, p.Ident}] = *avg
			}
		}
		for _, o := range f.orgs {
			var sum float64
			for _, k := range o.Packages {
				sum += week[pkgKey{k.Kind, k.Ident}]
			}
			avg := o.report.Summary["7d"].Average
			if assert.NotNil(t, avg, "organization %s: a 7-day average", o.Ident) {
				assert.True(t, near(*avg, sum), "organization %s: a 7-day average of %v, its %d packages' add up to %v",
					o.Ident, *avg, len(o.Packages), sum)
			}
		}
	})
}

func TestPlatformIsItsGames(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		var games float64
		for _, p := range f.packages {
			if p.Kind == "game" && p.Players != nil {
				games += *p.Players
			}
		}
		for _, h := range activityRanges {
			current := f.current[h]
			require.NotNil(t, current, "%s: the current point is known", h)
			if f.advanced {
				assert.True(t, *current >= games/3 && *current <= 3*games,
					"%s: %v players now, the games' add up to %v", h, *current, games)
			} else {
				assert.Equal(t, games, *current, "%s: the current point is the games' players", h)
			}
		}
	})
}

func TestServersHoldAtMostTheirPackagesPlayers(t *testing.T) {
	t.Parallel()
	forEachCatalog(t, func(t *testing.T, f *figures) {
		seated := map[pkgKey]float64{}
		for _, v := range f.servers {
			if v.Package != nil && v.Players != nil {
				seated[pkgKey{v.Package.Kind, v.Package.Ident}] += *v.Players
			}
		}
		for _, p := range f.packages {
			if p.Players != nil {
				assert.LessOrEqual(t, seated[pkgKey{p.Kind, p.Ident}], *p.Players, "%s/%s: its servers hold more players than it has", p.Kind, p.Ident)
			}
		}
	})
}

// TestNullsStayNulls checks that consistency did not fill in what is
// unavailable: the default catalogue still has packages with null current
// players and null peaks, history entries with null players, and activity
// points with null players.
func TestNullsStayNulls(t *testing.T) {
	t.Parallel()
	f, err := consistencyCases[0].read()
	require.NoError(t, err)
	var players, peaks, entries, points int
	for _, p := range f.packages {
		if p.Players == nil {
			players++
			assert.NotEmpty(t, p.report.History, "%s/%s: unavailable now, a history all the same", p.Kind, p.Ident)
		}
		if p.PlayersPeak == nil {
			peaks++
		}
		for _, e := range p.report.History {
			if e.Players == nil {
				entries++
			}
		}
	}
	for _, p := range f.week {
		if p[1] == nil {
			points++
		}
	}
	assert.Positive(t, players, "packages with null players")
	assert.Positive(t, peaks, "packages with a null peak")
	assert.Positive(t, entries, "history entries with null players")
	assert.Positive(t, points, "activity points with null players")
}
