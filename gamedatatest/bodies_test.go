package gamedatatest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// bodyCatalogues are catalogues whose every answer TestBodiesUnchanged
// digests, with the digest of the twin as it was when the wire format was
// still built as maps: a change to how a body is written (member order,
// number format, null or absent) changes the digest.
var bodyCatalogues = []struct {
	name   string
	opts   []Option
	change func(*Server)
	digest string
}{
	{name: "default", digest: "27f37d3f84bec3579f1c92306f89f07a65be94cbbfa4aa881b09533cbdcbd7ca"},
	{name: "seed 7", opts: []Option{WithSeed(7), WithSize(400, 200, 12)}, digest: "fb9ce8877eb60df298912239358c14d8bf56392155ee7fff0f7eecc9ec2976cd"},
	{name: "seed 42 awkward", opts: []Option{WithSeed(42), WithSize(40, 10, 3), WithAwkwardIdents()}, digest: "ebc6f44d99a3597c6ca4ed05ef100a372a1c567e73e598a41daac92a242a7375"},
	{name: "seed 9 history points", opts: []Option{WithSeed(9), WithSize(120, 30, 6), WithHistoryPoints(500)}, digest: "d0b9069f194886b2f75081fa7eba4738280945663dcc21917bf678cb1725d3dd"},
	{name: "empty", opts: []Option{WithSize(0, 0, 0)}, digest: "0e45118faae467e07c905edbd7e04b56884c33130fab0fcd9cdab7d4ae5ff625"},
	{name: "changed", digest: "d7d7b43f366fce1a60c17af5c5ab2c9575a221643a700f36cc48a35047943f9b", change: func(s *Server) {
		s.Advance(10*day + 7*time.Hour)
		// Numbers encoding/json writes with an exponent, and text it
		// would escape as HTML.
		for i, v := range []float64{math.NaN(), 123456.5, 2.5e21, 1e-7} {
			e := s.Catalog().Packages[i]
			s.UpdatePackage(e.Kind, e.Ident, PackageUpdate{Title: "Renamed <b>&</b> " + strconv.Itoa(i), Players: &v})
		}
		s.AddPackage("mod", "added-mod", "Added Mod")
		s.RemovePackage(s.Catalog().Packages[5].Kind, s.Catalog().Packages[5].Ident)
		s.ReorderEvery(1)
		for range 3 {
			s.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/dashboard", nil))
		}
	}},
}

// TestBodiesUnchanged digests every answer of each catalogue of
// bodyCatalogues: status, the headers that describe the body, and the body.
func TestBodiesUnchanged(t *testing.T) {
	t.Parallel()
	for _, c := range bodyCatalogues {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := NewServer(c.opts...)
			defer s.Close()
			if c.change != nil {
				c.change(s)
			}
			h := sha256.New()
			for _, path := range bodyPaths(s.Catalog()) {
				digestAnswer(h, s.Handler(), path)
			}
			assert.Equal(t, c.digest, hex.EncodeToString(h.Sum(nil)))
		})
	}
}

// digestAnswer adds the answer of handler to GET path to h.
func digestAnswer(h hash.Hash, handler http.Handler, path string) {
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	fmt.Fprintf(h, "%s %d", path, rec.Code)
	for _, k := range []string{"Content-Type", "Location", "Etag", "Last-Modified", "Allow"} {
		fmt.Fprintf(h, " %s=%q", k, rec.Header().Get(k))
	}
	fmt.Fprintf(h, " %d\n", rec.Body.Len())
	h.Write(rec.Body.Bytes())
}

// bodyPaths are the requests whose answers TestBodiesUnchanged digests:
// every record and report, directories under every sort and filter, pages
// in range and past it, every range, searches, and answers of no data.
func bodyPaths(c *Catalog) []string {
	paths := []string{"/openapi.json", "/nope", "/api/packages/game", "/api/analytics/packages/x/y"}
	for _, e := range c.Packages {
		for _, p := range []string{"/api/packages/", "/api/analytics/packages/"} {
			paths = append(paths, p+url.PathEscape(e.Kind)+"/"+url.PathEscape(e.Ident))
		}
	}
	for _, e := range c.Servers {
		paths = append(paths, "/api/servers/"+url.PathEscape(e.ID))
	}
	for _, o := range c.Organizations {
		paths = append(paths, "/api/organizations/"+url.PathEscape(o.Ident), "/api/analytics/organizations/"+url.PathEscape(o.Ident))
	}
	for _, kind := range []string{"", "game", "mod", "tool", "server", "bogus"} {
		for _, sort := range []string{"", "name", "players", "updated", "bogus"} {
			for _, q := range []string{"", "&filter=online", "&filter=has-players&filter=online", "&filter=org:1999", "&filter=bogus"} {
				for _, page := range []string{"page=1", "page=2&pageSize=7", "page=1&pageSize=100", "page=999", "page=0&pageSize=-1"} {
					paths = append(paths, "/api/dashboard?"+page+"&kind="+kind+"&sort="+sort+q)
				}
			}
		}
	}
	for _, sort := range []string{"", "name", "packages", "bogus"} {
		for _, q := range []string{"", "&filter=verified", "&filter=has-packages&filter=verified"} {
			for _, page := range []string{"page=1", "page=2&pageSize=3", "page=999"} {
				paths = append(paths, "/api/organizations?"+page+"&sort="+sort+q)
			}
		}
	}
	for _, rng := range []string{"", "24h", "7d", "30d", "90d", "1y", "all", "bogus"} {
		paths = append(paths, "/api/activity-history?range="+rng)
	}
	for _, q := range []string{"", "a", "miner", "NEON", " games ", "zzz-none", "1"} {
		paths = append(paths, "/api/search?q="+url.QueryEscape(q), "/api/analytics/packages?q="+url.QueryEscape(q))
	}
	return paths
}
