package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// unsafe reports the first rune a terminal could act on: C0 controls but
// newline, DEL, C1 controls and bidi controls.
func unsafe(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r >= 0x7f && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, true
		}
	}
	return 0, false
}

func TestTourOffline(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "in-process twin")
	out := stdout.String()
	for _, section := range []string{
		"== Dashboard: top 5 games", "== Dashboard: first 3 dedicated servers", `== Search "miner"`, "== Package game/",
		"== Server ", "== Organizations", "== Organization ", "== Activity history, 7d", `== Analytics search "neon"`,
		"== Package analytics", "== Organization analytics", "== OpenAPI document: version 3.1.0, 11 paths",
		"as a chart: gamedata chart activity --range 7d",
	} {
		assert.Contains(t, out, section)
	}
	r, bad := unsafe(out)
	assert.False(t, bad, "output carries %U", r)
}

func TestTourSanitizes(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	var titles []string
	hostile := 0
	var hits struct{ Packages []struct{ Title string } }
	require.NoError(t, json.Unmarshal(twin.Catalog().Search("miner"), &hits))
	require.GreaterOrEqual(t, len(hits.Packages), 3)
	for _, p := range hits.Packages[:3] {
		title := p.Title
		titles = append(titles, title)
		if _, bad := unsafe(title); bad {
			hostile++
		}
	}
	require.Positive(t, hostile, "the search hits the tour prints include hostile titles")

	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-base-url", twin.URL}, &stdout, &stderr))
	assert.NotContains(t, stderr.String(), "in-process twin", "a given base URL is used")
	assert.NotEmpty(t, twin.Requests(), "the tour went to the given base URL")
	r, bad := unsafe(stdout.String())
	assert.False(t, bad, "output carries %U", r)
	for _, title := range titles {
		assert.Contains(t, stdout.String(), gamedata.NewUntrusted(title).String(), "printed through Untrusted.String")
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"-no-such-flag"}, {"extra"}, {"-base-url", "::not a url"}} {
		var stdout, stderr bytes.Buffer
		assert.Error(t, run(context.Background(), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, stdout.String())
	}
}

// counted finds the counts a section's header states: a number and what it
// counts.
var counted = regexp.MustCompile(`(\d+) (game|package|server|dedicated server|organization)s?\b`)

// TestTourCountsWhatItLists checks that every list of the tour (its lines
// "  - …") comes under a header whose counts add up to what it lists, and
// where the header counts several kinds of things, that each item names
// its kind and each count matches its items.
func TestTourCountsWhatItLists(t *testing.T) {
	t.Parallel()
	for _, seed := range []int64{gamedatatest.DefaultSeed, 7, 11} {
		t.Run(strconv.FormatInt(seed, 10), func(t *testing.T) {
			t.Parallel()
			twin := gamedatatest.NewServer(gamedatatest.WithSeed(seed))
			defer twin.Close()
			var stdout, stderr bytes.Buffer
			require.NoError(t, run(context.Background(), []string{"-base-url", twin.URL}, &stdout, &stderr))
			lists := 0
			for _, section := range strings.Split(stdout.String(), "\n== ") {
				header, body, _ := strings.Cut(section, "\n")
				var items []string
				for _, line := range strings.Split(body, "\n") {
					if item, ok := strings.CutPrefix(line, "  - "); ok {
						items = append(items, item)
					}
				}
				counts := counted.FindAllStringSubmatch(header, -1)
				if len(counts) == 0 {
					assert.Empty(t, items, "%q lists what it does not count", header)
					continue
				}
				lists++
				total := 0
				for _, c := range counts {
					n, err := strconv.Atoi(c[1])
					require.NoError(t, err)
					total += n
					if len(counts) > 1 {
						kind := 0
						for _, item := range items {
							if strings.HasPrefix(item, c[2]+" ") {
								kind++
							}
						}
						assert.Equal(t, n, kind, "%q: the %ss listed", header, c[2])
					}
				}
				assert.Len(t, items, total, "%q: the items listed", header)
			}
			assert.Equal(t, 5, lists, "the tour's lists: top games, servers, search, organizations, analytics search")
		})
	}
}

// hostilePrefix retitles a terminal and clears it. hostileIdents prefixes
// every kind, ident, id and the OpenAPI version of the twin's answers with
// it, and takes it off the paths the tour then asks for, so that the tour
// runs whole on identifiers a terminal would act on. It counts the
// requests that named a hostile identifier.
const hostilePrefix = "\x1b]0;pwned\x07\x1b[2J"

func hostileIdents(t *testing.T, twin *gamedatatest.Server) (*httptest.Server, *atomic.Int32) {
	escaped, err := json.Marshal(hostilePrefix)
	require.NoError(t, err)
	inJSON := string(escaped[1 : len(escaped)-1])
	rewrite := strings.NewReplacer(`"kind":"`, `"kind":"`+inJSON, `"ident":"`, `"ident":"`+inJSON,
		`"id":"`, `"id":"`+inJSON, `"openapi":"`, `"openapi":"`+inJSON)
	var named atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := *r.URL
		if strings.Contains(u.Path, hostilePrefix) {
			named.Add(1)
		}
		u.Path, u.RawPath = strings.ReplaceAll(u.Path, hostilePrefix, ""), ""
		resp, err := twin.Client().Get(twin.URL + u.RequestURI())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		io.WriteString(w, rewrite.Replace(string(body)))
	}))
	t.Cleanup(proxy.Close)
	return proxy, &named
}

// Identifiers are the service's text as much as titles are: the tour
// prints kinds, idents, ids and the document's version only sanitized.
func TestTourSanitizesIdentifiers(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	proxy, named := hostileIdents(t, twin)

	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-base-url", proxy.URL}, &stdout, &stderr))
	assert.Positive(t, named.Load(), "the tour asked for records by the hostile identifiers it was sent")
	r, bad := unsafe(stdout.String())
	assert.False(t, bad, "output carries %U", r)
}
