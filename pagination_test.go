package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/walk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// twinDirectory starts a twin whose dashboard lists n packages, and returns
// it with their idents in the dashboard's default order, the order a walk
// yields them in.
func twinDirectory(t *testing.T, n int, opts ...gamedatatest.Option) (*gamedatatest.Server, []string) {
	t.Helper()
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSize(n, 0, n)}, opts...)...)
	t.Cleanup(twin.Close)
	return twin, identsOf(twin.Catalog().Packages)
}

func identsOf(entries []gamedatatest.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Ident
	}
	return out
}

func collect(seq func(func(DashboardEntry, error) bool)) ([]string, error) {
	var got []string
	for e, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, e.Ident)
	}
	return got, nil
}

func TestListSendsPageExplicitly(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 3)
	c := newTestClient(t, twin.URL)
	_, err := c.Dashboard.List(context.Background(), nil)
	require.NoError(t, err)
	_, err = c.Organizations.List(context.Background(), &ListOptions{Page: 0})
	require.NoError(t, err)
	require.Len(t, twin.Requests(), 2)
	for _, r := range twin.Requests() {
		assert.Equal(t, "1", r.Query.Get("page"), "%s?%s", r.Path, r.Query.Encode())
	}
}

func TestListRefusesBadPagingBeforeSending(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 3)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	for _, tt := range []struct{ page, size int }{{0, 101}, {0, -1}, {-1, 10}, {1, 1000}} {
		_, err := c.Dashboard.List(ctx, &DashboardOptions{ListOptions: ListOptions{Page: tt.page, PageSize: tt.size}})
		assert.Error(t, err, "dashboard page %d size %d", tt.page, tt.size)
		_, err = c.Organizations.List(ctx, &ListOptions{Page: tt.page, PageSize: tt.size})
		assert.Error(t, err, "organizations page %d size %d", tt.page, tt.size)
		for _, err := range c.Dashboard.All(ctx, &DashboardOptions{ListOptions: ListOptions{Page: tt.page, PageSize: tt.size}}, nil) {
			var pe *PageError
			assert.ErrorAs(t, err, &pe)
		}
	}
	_, err := c.Dashboard.List(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 100}})
	require.NoError(t, err, "100 is the documented maximum")
	assert.Len(t, twin.Requests(), 1, "only the valid request was sent")
}

func TestQueryEncoding(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 3)
	c := newTestClient(t, twin.URL)
	_, err := c.Dashboard.List(context.Background(), &DashboardOptions{
		Kind:        KindGame,
		ListOptions: ListOptions{Sort: "players", Page: 2, PageSize: 50, Filters: []string{"online", "org:acme"}, Params: url.Values{"lang": {"en"}}},
	})
	require.ErrorIs(t, err, ErrPageOutOfRange, "page 2 of 1 redirects")
	q := twin.Requests()[0].Query
	assert.Equal(t, url.Values{
		"kind": {"game"}, "sort": {"players"}, "page": {"2"}, "pageSize": {"50"},
		"filter": {"online", "org:acme"}, "lang": {"en"},
	}, q)

	_, err = c.Dashboard.List(context.Background(), &DashboardOptions{ListOptions: ListOptions{Params: url.Values{"page": {"3"}}}})
	assert.ErrorContains(t, err, `"page"`, "Params may not send a parameter twice")
	_, err = c.Activity.History(context.Background(), &ActivityOptions{Range: Range7d, Params: url.Values{"range": {"30d"}}})
	assert.Error(t, err)
	assert.Len(t, twin.Requests(), 1)
}

func TestAllYieldsEveryItemOnceInOrder(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 9, 10, 11, 95} {
		twin, all := twinDirectory(t, n)
		c := newTestClient(t, twin.URL)
		got, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil))
		require.NoError(t, err, "n=%d", n)
		if n == 0 {
			assert.Empty(t, got)
		} else {
			assert.Equal(t, all, got, "n=%d", n)
		}
		assert.Len(t, twin.Requests(), max(1, (n+9)/10), "n=%d: one request a page", n)
	}
}

func TestAllStopsOnErrorAndResumes(t *testing.T) {
	t.Parallel()
	page3 := func(r *http.Request) bool { return r.URL.Query().Get("page") == "3" }
	twin, all := twinDirectory(t, 45, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500}, Match: page3}))
	c := newTestClient(t, twin.URL, WithRetryMax(0))
	got, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil))
	var pe *PageError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 3, pe.Page)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	assert.Equal(t, all[:20], got)
	assert.Equal(t, 1, strings.Count(err.Error(), "gamedata:"), "the prefix is said once: %v", err)
	assert.Equal(t, 1, strings.Count(err.Error(), "GET "+twin.URL+"/api/dashboard?page=3"), "the request is named once: %v", err)

	twin.SetFaults(gamedatatest.Faults{})
	rest, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10, Page: pe.Page}}, nil))
	require.NoError(t, err)
	assert.Equal(t, all, append(got, rest...), "nothing lost, nothing repeated")
}

func TestAllBreakStopsFetching(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 50)
	c := newTestClient(t, twin.URL, WithPrefetch(0))
	n := 0
	for _, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
		require.NoError(t, err)
		if n++; n == 13 { // the third entry of page 2
			break
		}
	}
	assert.Len(t, twin.Requests(), 2)
}

func TestRedirectedPageIsNeverAnotherPagesData(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 25)
	c := newTestClient(t, twin.URL)

	page, err := c.Dashboard.List(context.Background(), &DashboardOptions{ListOptions: ListOptions{Page: 7, PageSize: 10}})
	assert.Nil(t, page)
	require.ErrorIs(t, err, ErrPageOutOfRange)
	require.Len(t, twin.Requests(), 1, "the redirect to page 3 is not followed")
	require.Equal(t, http.StatusFound, twin.Requests()[0].Status)

	_, err = c.Organizations.List(context.Background(), &ListOptions{Page: 4, PageSize: 10})
	assert.ErrorIs(t, err, ErrPageOutOfRange)

	got, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{Page: 9, PageSize: 10}}, nil))
	assert.Empty(t, got)
	var pe *PageError
	require.ErrorAs(t, err, &pe, "a walk that starts out of range says so")
	assert.ErrorIs(t, err, ErrPageOutOfRange)
}

func TestAllEndsWhenTheDirectoryShrinks(t *testing.T) {
	t.Parallel()
	twin, all := twinDirectory(t, 30)
	c := newTestClient(t, twin.URL, WithPrefetch(0))
	var got []string
	for e, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
		require.NoError(t, err)
		if len(got) == 0 { // page 1 is in; the directory shrinks before page 2 is asked for
			for _, e := range twin.Catalog().Packages[10:] {
				require.NoError(t, twin.RemovePackage(e.Kind, e.Ident))
			}
		}
		got = append(got, e.Ident)
	}
	assert.Equal(t, all[:10], got, "page 1's data is not yielded again as page 2")
	reqs := twin.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, http.StatusFound, reqs[1].Status, "page 2 now redirects to page 1")
}

func TestAllGuards(t *testing.T) {
	t.Parallel()
	page := func(items string, pageNo int, hasNext bool) string {
		return fmt.Sprintf(`{"items":[%s],"pagination":{"page":%d,"hasNext":%t}}`, items, pageNo, hasNext)
	}
	tests := []struct {
		name     string
		serve    func(page int) string
		want     []string
		wantErr  error
		wantPage int
	}{
		{
			name:     "ignores page without saying so",
			serve:    func(int) string { return `{"items":[{"kind":"game","ident":"a"}],"pagination":{"hasNext":true}}` },
			want:     []string{"a"},
			wantErr:  ErrPageNotAdvancing,
			wantPage: 1 + maxStalePages,
		},
		{
			name: "ignores page and shuffles",
			serve: func(p int) string {
				if p%2 == 0 {
					return `{"items":[{"kind":"game","ident":"a"},{"kind":"game","ident":"b"}],"pagination":{"hasNext":true}}`
				}
				return `{"items":[{"kind":"game","ident":"b"},{"kind":"game","ident":"a"}],"pagination":{"hasNext":true}}`
			},
			want:     []string{"b", "a"},
			wantErr:  ErrPageNotAdvancing,
			wantPage: 1 + maxStalePages,
		},
		{
			name:     "serves page 1 for every page",
			serve:    func(int) string { return page(`{"kind":"game","ident":"a"}`, 1, true) },
			want:     []string{"a"},
			wantErr:  ErrPageOutOfRange,
			wantPage: 2,
		},
		{
			name: "empty page with hasNext continues",
			serve: func(p int) string {
				switch p {
				case 1:
					return page(`{"kind":"game","ident":"a"}`, 1, true)
				case 2:
					return page(``, 2, true)
				}
				return page(`{"kind":"game","ident":"b"}`, 3, false)
			},
			want: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, log := newServer(t, hostileDirectory(tt.serve).ServeHTTP)
			c := newTestClient(t, srv.URL, WithPrefetch(0))
			got, err := collect(c.Dashboard.All(context.Background(), nil, nil))
			assert.Equal(t, tt.want, got)
			if tt.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			var pe *PageError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.wantPage, pe.Page)
			assert.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, tt.wantPage, log.len())

			prefetching := newTestClient(t, srv.URL, WithPrefetch(3))
			got, err = collect(prefetching.Dashboard.All(context.Background(), nil, nil))
			assert.Equal(t, tt.want, got, "the same with prefetch")
			assert.ErrorIs(t, err, tt.wantErr, "the same with prefetch")
		})
	}
}

func TestDecodePageRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		want    []string
		wantErr string
	}{
		{"items beside pagination", `{"items":[{"kind":"game","ident":"a"}],"pagination":{"hasNext":false}}`, []string{"a"}, ""},
		{"any name for the only array", `{"entries":[{"kind":"game","ident":"a"}],"pagination":{"hasNext":false},"total":1}`, []string{"a"}, ""},
		{"items wins among several", `{"items":[{"kind":"game","ident":"a"}],"filters":["x"],"pagination":{"hasNext":false}}`, []string{"a"}, ""},
		{"several arrays, none named items", `{"a":[],"b":[],"pagination":{"hasNext":false}}`, nil, `several arrays ("a", "b")`},
		{"no array", `{"pagination":{"hasNext":false}}`, nil, "no array of items"},
		{"no pagination", `{"items":[]}`, nil, "no pagination object"},
		{"hasNext not boolean", `{"items":[],"pagination":{"hasNext":"yes"}}`, nil, "pagination.hasNext"},
		{"hasNext missing", `{"items":[],"pagination":{}}`, nil, "pagination.hasNext"},
		{"page not integer", `{"items":[],"pagination":{"hasNext":false,"page":"1"}}`, nil, "pagination.page"},
		{"entry without identity", `{"items":[{"kind":"game","ident":"a"},{"title":"?"}],"pagination":{"hasNext":false}}`, nil, "items[1]: entry has neither"},
		{"ident of the wrong type", `{"items":[{"kind":"game","ident":{"x":1}}],"pagination":{"hasNext":false}}`, nil, "items[0]"},
		{"numeric ident", `{"items":[{"kind":"game","ident":730}],"pagination":{"hasNext":false}}`, []string{"730"}, ""},
		{"not an object", `[1,2]`, nil, "directory response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := decodePage([]byte(tt.body), 1, decodeDashboardEntry)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, e := range p.Items {
				got = append(got, e.Ident)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDecodePageNamesTheItem(t *testing.T) {
	t.Parallel()
	_, err := decodePage([]byte(`{"items":[{"id":"a"},{"id":"b"},7],"pagination":{"hasNext":false}}`), 1, decodeDashboardEntry)
	var de *DecodeError
	require.True(t, errors.As(err, &de))
	assert.Equal(t, "items[2]", de.Member)
}

// With prefetch, page 2 is asked for while the caller still works on
// page 1's first entry; without, only once the caller is done with page 1:
// the twin's log holds one request through page 1's last entry.
func TestPrefetchOverlapsTheNextPage(t *testing.T) {
	t.Parallel()
	for _, prefetch := range []int{0, 1} {
		twin, all := twinDirectory(t, 30)
		c := newTestClient(t, twin.URL, WithPrefetch(prefetch))
		var got []string
		for e, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
			require.NoError(t, err)
			switch {
			case len(got) == 0 && prefetch > 0:
				ctx, cancel := context.WithTimeout(context.Background(), deadlockGuard)
				require.NoError(t, twin.WaitRequests(ctx, 2), "page 2 asked for while page 1's first entry is worked on")
				cancel()
			case len(got) < 10 && prefetch == 0:
				assert.Len(t, twin.Requests(), 1, "entry %d: page 2 asked for before the caller is done with page 1", len(got))
			}
			got = append(got, e.Ident)
		}
		assert.Equal(t, all, got, "prefetch %d", prefetch)
	}
}

func TestBreakCancelsPrefetchedPages(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 30)
	arrived, cancelled := make(chan struct{}), make(chan struct{})
	// A hand handler in front of the twin: the test must see page 2's
	// request context end, which the twin's stall fault ends on but does
	// not report as it happens.
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			close(arrived)
			<-r.Context().Done()
			close(cancelled)
			return
		}
		twin.Handler().ServeHTTP(w, r)
	})
	c := newTestClient(t, srv.URL, WithPrefetch(1))
	for _, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
		require.NoError(t, err)
		<-arrived // page 2 is in flight
		break
	}
	await(t, cancelled, "the prefetched page to be cancelled when the caller broke out")
}

func TestAllDropsDuplicatesOfAShiftingDirectory(t *testing.T) {
	t.Parallel()
	// Page 2 is served after "c" moved up from page 2 to page 1's range:
	// the boundary shifts and "b" shows up again on page 2.
	bodies := map[int]string{
		1: `{"items":[{"kind":"game","ident":"a"},{"kind":"game","ident":"b"}],"pagination":{"page":1,"hasNext":true}}`,
		2: `{"items":[{"kind":"game","ident":"b"},{"kind":"game","ident":"d"}],"pagination":{"page":2,"hasNext":true}}`,
		3: `{"items":[{"id":"203.0.113.7:27015"},{"kind":"game","ident":"a"}],"pagination":{"page":3,"hasNext":false}}`,
	}
	// The twin shifts its order (ReorderEvery) but not to a chosen
	// boundary, and never lists a server among packages.
	srv, _ := newServer(t, hostileDirectory(func(page int) string { return bodies[page] }).ServeHTTP)
	c := newTestClient(t, srv.URL)
	var stats WalkStats
	var got []string
	for e, err := range c.Dashboard.All(context.Background(), nil, &WalkOptions{Stats: &stats}) {
		require.NoError(t, err)
		got = append(got, dashboardIdentity(e))
	}
	assert.Equal(t, []string{"game/a", "game/b", "game/d", "server:203.0.113.7:27015"}, got)
	assert.Equal(t, WalkStats{Pages: 3, Items: 4, Duplicates: 2}, stats)
}

func TestOneWalkSequenceIteratedTwiceAtOnce(t *testing.T) {
	t.Parallel()
	twin, all := twinDirectory(t, 35)
	c := newTestClient(t, twin.URL)
	seq := c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil)
	results := make(chan []string, 2)
	for range 2 {
		go func() {
			got, err := collect(seq)
			assert.NoError(t, err)
			results <- got
		}()
	}
	assert.Equal(t, all, <-results)
	assert.Equal(t, all, <-results)
}

// A walk whose context ends names the request it could not make, whether
// the page was on the wire or not yet asked for.
func TestAllDeadlineErrorNamesTheRequest(t *testing.T) {
	t.Parallel()
	// Every page but the first stalls until the client goes away.
	notFirst := func(r *http.Request) bool { return r.URL.Query().Get("page") != "1" }
	twin, _ := twinDirectory(t, 45, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders}, Match: notFirst}))
	for _, prefetch := range []int{0, 1, 3} {
		c := newTestClient(t, twin.URL, WithPrefetch(prefetch))
		ctx, cancel := context.WithCancel(context.Background())
		var err error
		for _, e := range c.Dashboard.All(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
			if e != nil {
				err = e
				break
			}
			cancel()
		}
		cancel()
		var pe *PageError
		require.ErrorAs(t, err, &pe, "prefetch %d", prefetch)
		assert.Equal(t, 2, pe.Page)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Contains(t, err.Error(), "GET "+twin.URL+"/api/dashboard?page=2", "prefetch %d", prefetch)
	}
}

// A walk of a 3,000-entry directory whose pages are cut mid-body, sent
// chunked, on 30 % of responses yields every entry exactly once: each cut
// is retried as a transport fault, never taken as the page.
func TestAllRecoversPagesCutMidBody(t *testing.T) {
	t.Parallel()
	twin, all := twinDirectory(t, 3000, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 0.3, Kinds: []gamedatatest.Fault{gamedatatest.FaultChunkedCut}, Seed: 7}))
	c := newTestClient(t, twin.URL, WithRetryMax(10))
	got, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 100}}, nil))
	require.NoError(t, err)
	assert.Equal(t, all, got, "every entry exactly once, in order")
	cuts := 0
	for _, r := range twin.Requests() {
		if r.Fault != 0 {
			cuts++
		}
	}
	t.Logf("%d requests, %d cut mid-body", len(twin.Requests()), cuts)
	assert.Positive(t, cuts)
}

// hostileDirectory serves the body serve gives for the page asked (0
// when the request names none): a directory the twin cannot be, for the
// twin's honours page, ends, shifts only at its own boundaries and tells
// the truth in its pagination.
func hostileDirectory(serve func(page int) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		w.Write([]byte(serve(page)))
	})
}

// endless is a hostile directory that never ends: every page holds size
// entries never seen before and says hasNext, with the members extra
// beside hasNext in its pagination.
func endless(size int, extra string) http.Handler {
	return hostileDirectory(func(page int) string {
		var b strings.Builder
		b.WriteString(`{"items":[`)
		for i := range size {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"kind":"game","ident":"e%d"}`, (page-1)*size+i)
		}
		fmt.Fprintf(&b, `],"pagination":{"page":%d,"hasNext":true%s}}`, page, extra)
		return b.String()
	})
}

// A walk ends with ErrWalkUnbounded, at the page that crossed the bound
// and before any of its entries, when a directory goes on past what it
// said of itself or past MaxItems, or serves pages larger than asked for.
func TestWalkBounds(t *testing.T) {
	t.Parallel()
	exact, all := twinDirectory(t, 30)
	tests := []struct {
		name     string
		serve    http.Handler
		opts     walkOpts
		wantErr  error
		wantPage int // the page of the error; its entries are not yielded
	}{
		{"never ends", endless(10, ""), walkOpts{ListOptions{PageSize: 10}, 500}, ErrWalkUnbounded, 51},
		{"past the pages it said", endless(10, `,"totalPages":5`), walkOpts{ListOptions{PageSize: 10}, 0}, ErrWalkUnbounded, 7},
		{"past the entries it said", endless(10, `,"total":50`), walkOpts{ListOptions{PageSize: 10}, 0}, ErrWalkUnbounded, 7},
		{"totals that are not numbers say nothing", endless(10, `,"total":"50","totalPages":null`), walkOpts{ListOptions{PageSize: 10}, 200}, ErrWalkUnbounded, 21},
		{"a page larger than asked for", endless(11, ""), walkOpts{ListOptions{PageSize: 10}, 0}, ErrWalkUnbounded, 1},
		{"a page larger than the contract allows", endless(101, ""), walkOpts{ListOptions{}, 0}, ErrWalkUnbounded, 1},
		{"a page of the contract's size", endless(100, `,"totalPages":2`), walkOpts{ListOptions{}, 0}, ErrWalkUnbounded, 4},
		{
			// The directory grew by a page while the walk ran, and said
			// so late or not at all: one page of slack.
			name: "one page past what it said is allowed",
			serve: hostileDirectory(func(page int) string {
				return fmt.Sprintf(`{"items":[{"kind":"game","ident":"g%d"}],"pagination":{"page":%d,"hasNext":%t,"totalPages":2,"total":2}}`, page, page, page < 3)
			}),
			opts: walkOpts{ListOptions{PageSize: 1}, 0},
		},
		{"MaxItems exactly the directory's size", exact.Handler(), walkOpts{ListOptions{PageSize: 10}, len(all)}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, log := newServer(t, tt.serve.ServeHTTP)
			for _, prefetch := range []int{0, 3} {
				c := newTestClient(t, srv.URL, WithPrefetch(prefetch))
				var stats WalkStats
				walk := &WalkOptions{MaxItems: tt.opts.maxItems, Stats: &stats}
				got, err := collect(c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: tt.opts.ListOptions}, walk))
				if tt.wantErr == nil {
					require.NoError(t, err)
					continue
				}
				var pe *PageError
				require.ErrorAs(t, err, &pe, "prefetch %d", prefetch)
				assert.ErrorIs(t, err, tt.wantErr, "prefetch %d", prefetch)
				assert.Equal(t, tt.wantPage, pe.Page, "prefetch %d: %v", prefetch, err)
				assert.Equal(t, tt.wantPage, stats.Pages, "prefetch %d", prefetch)
				assert.Len(t, got, stats.Items, "prefetch %d: the page at fault yields nothing", prefetch)
				assert.Equal(t, 1, strings.Count(err.Error(), "gamedata:"), err.Error())
			}
			if tt.wantErr != nil {
				assert.LessOrEqual(t, log.len(), 2*(tt.wantPage+3), "the walks stopped there")
			}
		})
	}
}

// walkOpts are the options of a walk in a table: a page, and a bound.
type walkOpts struct {
	ListOptions
	maxItems int
}

// A walk stopped by MaxItems resumes at the page it names, losing nothing
// and repeating nothing.
func TestWalkPastMaxItemsResumes(t *testing.T) {
	t.Parallel()
	twin, want := twinDirectory(t, 95)
	c := newTestClient(t, twin.URL)
	opts := &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}
	var all []string
	for {
		got, err := collect(c.Dashboard.All(context.Background(), opts, &WalkOptions{MaxItems: 40}))
		all = append(all, got...)
		if err == nil {
			break
		}
		var pe *PageError
		require.ErrorAs(t, err, &pe)
		require.ErrorIs(t, err, ErrWalkUnbounded)
		assert.Contains(t, err.Error(), "raise MaxItems")
		opts.Page = pe.Page
	}
	assert.Equal(t, want, all)
	assert.Equal(t, 9, opts.Page, "stopped at pages 5 and 9")
}

func TestWalkRefusesANegativeMaxItems(t *testing.T) {
	t.Parallel()
	twin, _ := twinDirectory(t, 3)
	c := newTestClient(t, twin.URL)
	n := 0
	for _, err := range c.Organizations.All(context.Background(), nil, &WalkOptions{MaxItems: -1}) {
		var pe *PageError
		require.ErrorAs(t, err, &pe)
		assert.ErrorIs(t, err, ErrInvalidArgument)
		n++
	}
	assert.Equal(t, 1, n)
	assert.Empty(t, twin.Requests())
}

// The default bound lets a 100,000-entry directory through, in pages of
// any size up to the contract's, the totals said or not.
func TestDefaultBoundLetsALargePlatformThrough(t *testing.T) {
	t.Parallel()
	const entries = 100_000
	for _, size := range []int{1, 20, 100} {
		pages := entries / size
		said, err := decodePagination([]byte(fmt.Sprintf(`{"hasNext":true,"total":%d,"totalPages":%d}`, entries, pages)), 1)
		require.NoError(t, err)
		w := newWalker(ListOptions{PageSize: size}, WalkOptions{}, dashboardKey)
		p := &Page[DashboardEntry]{Pagination: said, Items: make([]DashboardEntry, size)}
		for page := 1; page <= pages; page++ {
			require.NoError(t, w.count(page, p), "page size %d, page %d", size, page)
		}
	}
	// MaxItems 0 is DefaultMaxItems: that many entries pass, one more
	// does not.
	w := newWalker(ListOptions{}, WalkOptions{}, dashboardKey)
	p := &Page[DashboardEntry]{Items: make([]DashboardEntry, maxPageSize)}
	for page := 1; page <= DefaultMaxItems/maxPageSize; page++ {
		require.NoError(t, w.count(page, p), "page %d", page)
	}
	assert.ErrorIs(t, w.count(DefaultMaxItems/maxPageSize+1, p), ErrWalkUnbounded)
}

// BenchmarkWalkBound measures what a walk holds when a directory never
// ends: the identity set alone at DefaultMaxItems entries, and the peak
// heap of a walk of the endless directory until the default bound stops
// it. Run it with -benchtime=1x: one walk is 10,000 requests.
func BenchmarkWalkBound(b *testing.B) {
	b.Run("identity set", func(b *testing.B) {
		for range b.N {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s := walk.NewSeen()
			for i := range DefaultMaxItems {
				s.Add("game/e" + strconv.Itoa(i))
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/DefaultMaxItems, "B/identity")
			runtime.KeepAlive(s)
		}
	})
	b.Run("endless directory", func(b *testing.B) {
		srv := httptest.NewServer(endless(100, ""))
		defer srv.Close()
		c, err := NewClient(srv.URL, WithRateLimit(rate.Inf, 0), WithCache(nil))
		require.NoError(b, err)
		for range b.N {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			base, peak := m.HeapAlloc, m.HeapAlloc
			var walkErr error
			for e, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 100}}, nil) {
				if err != nil {
					walkErr = err
					break
				}
				if strings.HasSuffix(e.Ident, "0000") { // every 100 pages
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapAlloc)
				}
			}
			require.ErrorIs(b, walkErr, ErrWalkUnbounded)
			b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
		}
	})
}

// fuzzItemsLen counts, with encoding/json alone, the elements of the
// array of items: the only array member other than pagination, or the
// member "items" when there are several. A name sent twice means its last
// value, as in encoding/json and in Fields. It returns false when there is
// no such array.
func fuzzItemsLen(body []byte) (int, bool) {
	obj, ok := fuzzObject(body)
	if !ok {
		return 0, false
	}
	var arrays [][]any
	for name, member := range obj {
		if a, ok := member.([]any); ok && name != "pagination" {
			arrays = append(arrays, a)
		}
	}
	if len(arrays) == 1 {
		return len(arrays[0]), true
	}
	if a, ok := obj["items"].([]any); ok {
		return len(a), true
	}
	return 0, false
}

func FuzzDecodePage(f *testing.F) {
	f.Add(fuzzFixture(f, "dashboard_game_page1.json"), 1)
	f.Add(fuzzFixture(f, "dashboard_servers.json"), 1)
	f.Add([]byte(`{"entries":[{"id":7},{"kind":"game","ident":"x","id":null}],"pagination":{"hasNext":false,"page":null}}`), 3)
	f.Add([]byte(`{"items":[],"other":[1],"pagination":{"hasNext":true}}`), 1)
	f.Add([]byte(`{"items":[{"kind":"game"}],"pagination":{"hasNext":false}}`), 1)
	f.Add([]byte(`{"items":[],"pagination":{"hasNext":true,"page":2}}`), 1)
	f.Add([]byte(`{"pagination":{"hasNext":false},"items":`+fuzzNestingBomb), 1)

	f.Fuzz(func(t *testing.T, body []byte, requested int) {
		var p *Page[DashboardEntry]
		var err error
		fuzzCheckAllocations(t, "decodePage", body, func() { p, err = decodePage(body, requested, decodeDashboardEntry) })
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) && !errors.Is(err, ErrPageOutOfRange) {
				t.Fatalf("decodePage(%q, %d): error %T %v, want a *DecodeError or ErrPageOutOfRange", body, requested, err, err)
			}
			return
		}
		if n, ok := fuzzItemsLen(body); !ok || n != len(p.Items) {
			t.Fatalf("decodePage(%q, %d): %d items, encoding/json counts %d (found: %v)", body, requested, len(p.Items), n, ok)
		}
		if p.Pagination.Page != requested {
			t.Errorf("decodePage(%q, %d): page %d, want the page asked for", body, requested, p.Pagination.Page)
		}
		for i, e := range p.Items {
			if e.ID == "" && (e.Kind == "" || e.Ident == "") {
				t.Errorf("decodePage(%q, %d): item %d %+v has no identity", body, requested, i, e)
			}
		}
	})
}

// List sends every field of ListOptions: a setting List would ignore
// belongs to WalkOptions.
func TestListSendsEveryOption(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer()
	t.Cleanup(twin.Close)
	c := newTestClient(t, twin.URL)
	query := func(lo ListOptions) string {
		t.Helper()
		_, err := c.Organizations.List(context.Background(), &lo)
		require.NoError(t, err)
		reqs := twin.Requests()
		return reqs[len(reqs)-1].Query.Encode()
	}
	zero := query(ListOptions{})
	typ := reflect.TypeFor[ListOptions]()
	for i := range typ.NumField() {
		var lo ListOptions
		f := reflect.ValueOf(&lo).Elem().Field(i)
		switch v := f.Addr().Interface().(type) {
		case *string:
			*v = "x"
		case *int:
			*v = 2
		case *[]string:
			*v = []string{"x"}
		case *url.Values:
			*v = url.Values{"extra": {"x"}}
		default:
			f.Set(reflect.New(f.Type().Elem())) // a pointer
		}
		assert.NotEqual(t, zero, query(lo), "ListOptions.%s is not sent by List: a walk's setting belongs to WalkOptions", typ.Field(i).Name)
	}
}

// A page List returns carries the Response of the call that read it, the
// one WithResponseInto receives: a read in full, a revalidation of the
// stored page, and a page that needed a retry each say so.
func TestListPageCarriesItsResponse(t *testing.T) {
	t.Parallel()
	_, url := faultyTwin(t, gamedatatest.Faults{
		Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1,
		Match: func(r *http.Request) bool { return r.URL.Query().Get("page") == "2" },
	})
	c := newTestClient(t, url)
	tests := []struct {
		name     string
		page     int
		attempts int
		cache    CacheStatus
	}{
		{"read in full", 1, 1, CacheMiss},
		{"the same page revalidated", 1, 1, CacheRevalidated},
		{"a page retried once", 2, 2, CacheMiss},
	}
	for _, tt := range tests { // in order: the second reads what the first stored
		var into Response
		p, err := c.Dashboard.List(context.Background(), &DashboardOptions{ListOptions: ListOptions{Page: tt.page, PageSize: 2}}, WithResponseInto(&into))
		require.NoError(t, err, tt.name)
		assert.Equal(t, http.StatusOK, p.Response.StatusCode, tt.name)
		assert.Equal(t, tt.attempts, p.Response.Attempts, tt.name)
		assert.Equal(t, tt.cache, p.Response.Cache, tt.name)
		assert.NotEmpty(t, p.Response.Header.Get("ETag"), tt.name)
		assert.Equal(t, into, p.Response, "%s: the page and WithResponseInto see one Response", tt.name)
	}
	o, err := c.Organizations.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, 1, o.Response.Attempts, "without WithResponseInto too")
}
