package gamedata

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDashboardWatch(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(25, 0, 1))
	defer twin.Close()
	c := cachingClient(t, twin.URL, newFakeClock(), WithRetryMax(0))
	entries := twin.Catalog().Entries(nil)
	require.Len(t, entries, 25)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var log []string
	step := 0
	for ch, err := range c.Dashboard.Watch(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, time.Minute) {
		if err != nil {
			var pe *PageError
			require.ErrorAs(t, err, &pe)
			log = append(log, fmt.Sprintf("error page %d", pe.Page))
		} else {
			e := ch.New
			if ch.Op == Removed {
				e = ch.Old
			}
			log = append(log, ch.Op.String()+" "+e.Ident)
		}
		switch {
		case step == 0 && len(log) == 25: // after the first round
			require.NoError(t, twin.RemovePackage(entries[3].Kind, entries[3].Ident))
			require.NoError(t, twin.AddPackage(KindGame, "new", "New"))
			step++
		case step == 1 && len(log) == 27: // entries[3] gone, new added
			require.NoError(t, twin.RemovePackage(entries[0].Kind, entries[0].Ident))
			twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500}, Match: func(r *http.Request) bool {
				return r.URL.Query().Get("page") == "2"
			}})
			step++
		case step == 2 && len(log) == 28: // the round failed on page 2
			twin.SetFaults(gamedatatest.Faults{})
			step++
		case step == 3 && len(log) == 29:
			cancel()
		}
	}
	require.Len(t, log, 29)
	for i, e := range entries {
		assert.Equal(t, "added "+e.Ident, log[i])
	}
	assert.ElementsMatch(t, []string{"added new", "removed " + entries[3].Ident}, log[25:27])
	assert.Equal(t, []string{"error page 2", "removed " + entries[0].Ident}, log[27:])
}

func TestDashboardWatchReportsUpdates(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(2, 0, 1))
	t.Cleanup(twin.Close)
	c := cachingClient(t, twin.URL, newFakeClock())
	first := twin.Catalog().Packages[0]
	players := first.Players.Value + 1
	var got []Change[DashboardEntry]
	for ch, err := range c.Dashboard.Watch(context.Background(), nil, time.Minute) {
		require.NoError(t, err)
		got = append(got, ch)
		if len(got) == 2 {
			require.NoError(t, twin.UpdatePackage(first.Kind, first.Ident, gamedatatest.PackageUpdate{Players: &players}))
		}
		if len(got) == 3 {
			break
		}
	}
	require.Len(t, got, 3)
	assert.Equal(t, Updated, got[2].Op)
	assert.JSONEq(t, string(first.JSON()), string(got[2].Old.JSON()))
	assert.JSONEq(t, string(twin.Catalog().Packages[0].JSON()), string(got[2].New.JSON()))
	assert.NotEqual(t, string(got[2].Old.JSON()), string(got[2].New.JSON()))
}

// A round whose walk did not end on hasNext false diffs nothing. Here the
// second round's page 2 is redirected to page 1 once, as a service does
// for a page out of range, while the data is unchanged: All would end
// there without an error, but a round that saw one page of five must not
// report the other four as removed (and as added again a round later).
func TestDashboardWatchDiffsOnlyWholeRounds(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(50, 0, 5))
	defer twin.Close()
	var page2 atomic.Int32
	twin.SetFaults(gamedatatest.Faults{
		Rate: 1,
		Match: func(r *http.Request) bool {
			return r.URL.Path == "/api/dashboard" && r.URL.Query().Get("page") == "2" && page2.Add(1) == 2
		},
		// To page 1 of the same walk, as the service redirects a page past
		// a directory that shrank.
		Answer: gamedatatest.Respond(gamedatatest.Response{Status: http.StatusFound, Header: http.Header{"Location": {"/api/dashboard?page=1&pageSize=10"}}}),
	})
	c := cachingClient(t, twin.URL, newFakeClock())
	entries := twin.Catalog().Entries(nil)
	require.Len(t, entries, 50)
	players := 123456.0

	var log []string
	for ch, err := range c.Dashboard.Watch(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, time.Minute) {
		switch {
		case err != nil:
			var pe *PageError
			require.ErrorAs(t, err, &pe)
			assert.ErrorIs(t, err, ErrPageOutOfRange)
			log = append(log, fmt.Sprintf("error page %d", pe.Page))
		case ch.Op == Removed:
			log = append(log, "removed "+ch.Old.Ident)
		default:
			log = append(log, ch.Op.String()+" "+ch.New.Ident)
		}
		if len(log) == 51 { // after the second round, whatever it said
			require.NoError(t, twin.UpdatePackage(entries[7].Kind, entries[7].Ident, gamedatatest.PackageUpdate{Players: &players}))
		}
		if len(log) == 52 {
			break
		}
	}
	for i, e := range entries {
		assert.Equal(t, "added "+e.Ident, log[i])
	}
	assert.Equal(t, []string{"error page 2", "updated " + entries[7].Ident}, log[50:], "the cut round reports nothing, the next one only the change")
}

// A round reads its pages one after another. Here the twin loses an entry
// of page 1 after the second round read page 1 and before it reads page
// 2, so the first entry of page 2 moves up to page 1 unseen: that round
// misses it, though it is listed all along. The watch must not report it
// removed (and added again a round later); the entry really gone is
// reported once, when the next round confirms it.
func TestDashboardWatchConfirmsARemoval(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 0, 1))
	defer twin.Close()
	entries := twin.Catalog().Entries(nil)
	require.Len(t, entries, 12)
	gone, neighbour := entries[2], entries[5] // on page 1; first on page 2
	var rounds, removed atomic.Int32
	between := func(req *http.Request, next Next) (*http.Response, error) {
		if req.URL.Path == "/api/dashboard" {
			switch page := req.URL.Query().Get("page"); {
			case page == "1":
				rounds.Add(1)
			case page == "2" && rounds.Load() == 2 && removed.Add(1) == 1:
				require.NoError(t, twin.RemovePackage(gone.Kind, gone.Ident))
			}
		}
		return next.RoundTrip(req)
	}
	c := cachingClient(t, twin.URL, newFakeClock(), WithMiddleware(between))

	var log []string
	for ch, err := range c.Dashboard.Watch(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 5}}, time.Minute) {
		require.NoError(t, err)
		if ch.Op == Removed {
			log = append(log, "removed "+ch.Old.Ident)
		} else {
			log = append(log, ch.Op.String()+" "+ch.New.Ident)
		}
		if len(log) == 13 {
			break
		}
	}
	require.Len(t, log, 13)
	assert.Equal(t, "removed "+gone.Ident, log[12], "the entry really gone, and not its neighbour %s", neighbour.Ident)
	assert.GreaterOrEqual(t, rounds.Load(), int32(3), "confirmed by the round after the one that missed the neighbour")
}
