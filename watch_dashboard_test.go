package gamedata

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDashboardWatch(t *testing.T) {
	d := newEtagDirectory(25)
	srv, _ := newServer(t, d.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock(), WithRetryMax(0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var log []string
	step := 0
	for ch, err := range c.Dashboard.Watch(ctx, &DashboardOptions{Kind: KindGame}, time.Minute) {
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
		d.mu.Lock()
		switch {
		case step == 0 && len(log) == 25: // after the first round
			d.idents = append(slices.Clone(d.idents[:3]), append([]string{"new"}, d.idents[4:]...)...)
			step++
		case step == 1 && len(log) == 27: // g003 gone, new added
			d.idents = slices.Clone(d.idents[1:]) // g000 gone, but the round fails
			d.failPage = 2
			step++
		case step == 2 && len(log) == 28:
			d.failPage = 0
			step++
		case step == 3 && len(log) == 29:
			cancel()
		}
		d.mu.Unlock()
	}
	require.Len(t, log, 29)
	for i, l := range log[:25] {
		assert.Equal(t, "added "+newEtagDirectory(25).idents[i], l)
	}
	assert.Equal(t, []string{"added new", "removed g003", "error page 2", "removed g000"}, log[25:])
}

func TestDashboardWatchReportsUpdates(t *testing.T) {
	var body string
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body))
	})
	c := cachingClient(t, srv.URL, newFakeClock())
	body = `{"items":[{"kind":"game","ident":"a","players":1},{"id":"s1"}],"pagination":{"hasNext":false}}`
	var got []Change[DashboardEntry]
	for ch, err := range c.Dashboard.Watch(context.Background(), nil, time.Minute) {
		require.NoError(t, err)
		got = append(got, ch)
		if len(got) == 2 {
			body = `{"items":[{"kind":"game","ident":"a","players":2},{"id":"s1"}],"pagination":{"hasNext":false}}`
		}
		if len(got) == 3 {
			break
		}
	}
	require.Len(t, got, 3)
	assert.Equal(t, Updated, got[2].Op)
	assert.JSONEq(t, `{"kind":"game","ident":"a","players":1}`, string(got[2].Old.JSON()))
	assert.JSONEq(t, `{"kind":"game","ident":"a","players":2}`, string(got[2].New.JSON()))
}
