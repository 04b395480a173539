//go:build unix

package gamedata

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Another user who can write the directory plants a forged record through
// the public Cache interface; the victim's NewDiskCache refuses the
// directory, so the forgery is never served.
func TestDiskCacheRefusesEntriesPlantedByAnotherUser(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(3, 0, 1))
	defer twin.Close()
	e := twin.Catalog().Entries(nil)[0]
	forged := `{"kind":"` + e.Kind + `","ident":"` + e.Ident + `","title":"FORGED BY ANOTHER USER","players":999999}`
	forge := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{
			StatusCode: http.StatusOK, Request: r, ContentLength: int64(len(forged)),
			Header: http.Header{"Cache-Control": {"max-age=86400"}, "Content-Type": {"application/json"}},
			Body:   io.NopCloser(strings.NewReader(forged)),
		}, nil
	})

	dir := filepath.Join(t.TempDir(), "shared")
	planted, err := NewDiskCache(dir)
	require.NoError(t, err)
	planter := newTestClient(t, twin.URL, WithCache(planted), WithHTTPClient(&http.Client{Transport: forge}))
	_, err = planter.Packages.Get(context.Background(), e.Kind, e.Ident)
	require.NoError(t, err)
	// Every user may write the directory now. (A directory of another
	// user is refused the same way: internal/httpcache tests both.)
	require.NoError(t, os.Chmod(dir, 0o777))

	cache, err := NewDiskCache(dir)
	if err == nil {
		victim := newTestClient(t, twin.URL, WithCache(cache))
		p, err := victim.Packages.Get(context.Background(), e.Kind, e.Ident)
		require.NoError(t, err)
		title, _ := p.Text("title")
		t.Fatalf("the shared directory was accepted, and the victim read the title %q", title.String())
	}
	require.ErrorIs(t, err, ErrUnsafeCacheDir)
	assert.Contains(t, err.Error(), "may be written by its group or others", "the error says why")
	assert.Contains(t, err.Error(), "use a directory of your own, such as under os.UserCacheDir()", "and what to do")
}
