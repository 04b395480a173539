package gamedatatest

import (
	"math"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpdatePackage(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	players := 4242.0
	require.NoError(t, s.UpdatePackage("game", "1337", PackageUpdate{Title: "Leet", Players: &players}))
	rec := getOK(t, s, "/api/packages/game/1337")
	assert.Equal(t, "Leet", rec["title"])
	assert.Equal(t, 4242.0, rec["players"])
	assert.Equal(t, stamp(s.Catalog().Now), rec["updatedAt"])
	assert.Equal(t, rec, object(t, s.Catalog().Package("game", "1337")))

	null := math.NaN()
	require.NoError(t, s.UpdatePackage("game", "1337", PackageUpdate{Players: &null}))
	assert.Nil(t, getOK(t, s, "/api/packages/game/1337")["players"])
	assert.Error(t, s.UpdatePackage("game", "nope", PackageUpdate{}))
}

func TestUpdatePackageRaisesPeak(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	var peak float64
	var kind, ident string
	for _, e := range decoded(t, s.Catalog().Packages) {
		if v, ok := e["playersPeak"].(float64); ok {
			peak, kind, ident = v, e["kind"].(string), e["ident"].(string)
			break
		}
	}
	require.NotEmpty(t, ident, "a package with a known peak")
	path := "/api/packages/" + kind + "/" + url.PathEscape(ident)
	tests := []struct {
		players, wantPeak float64
	}{
		{peak - 1, peak},         // below the peak: the peak stays
		{peak + 100, peak + 100}, // above: the all-time peak is now
		{peak, peak + 100},       // back down: the peak stays where it rose
	}
	for _, tt := range tests {
		require.NoError(t, s.UpdatePackage(kind, ident, PackageUpdate{Players: &tt.players}))
		rec := getOK(t, s, path)
		assert.Equal(t, tt.players, rec["players"])
		assert.Equal(t, tt.wantPeak, rec["playersPeak"], "players %v", tt.players)
	}
}

func TestAddAndRemovePackage(t *testing.T) {
	t.Parallel()
	s := NewServer(WithSize(20, 5, 4))
	defer s.Close()
	before := len(s.Catalog().Packages)

	require.NoError(t, s.AddPackage("mod", "0-new", "A New Mod"))
	assert.Error(t, s.AddPackage("mod", "0-new", "again"), "exists")
	assert.Error(t, s.AddPackage("server", "x", "x"), "not a package kind")
	assert.Error(t, s.AddPackage("game", "", "x"), "empty ident")
	c := s.Catalog()
	require.Len(t, c.Packages, before+1)
	assert.Equal(t, "0-new", c.Packages[0].Ident, "in default order")
	assert.Equal(t, "A New Mod", getOK(t, s, "/api/packages/mod/0-new")["title"])
	assert.Equal(t, http.StatusOK, get(t, s, "/api/analytics/packages/mod/0-new").status)

	victim := c.Packages[len(c.Packages)-1]
	kind, ident, org := victim.Kind, victim.Ident, victim.Organization
	require.NoError(t, s.RemovePackage(kind, ident))
	assert.Error(t, s.RemovePackage(kind, ident), "already gone")
	assert.Equal(t, http.StatusNotFound, get(t, s, "/api/packages/"+kind+"/"+ident).status)
	assert.Equal(t, http.StatusNotFound, get(t, s, "/api/analytics/packages/"+kind+"/"+ident).status)
	assert.Len(t, s.Catalog().Packages, before)
	assert.NotContains(t, decoded(t, s.Catalog().Packages), object(t, victim.JSON()))
	if org != "" {
		for _, ref := range maps(t, getOK(t, s, "/api/organizations/"+url.PathEscape(org))["packages"]) {
			assert.NotEqual(t, map[string]any{"kind": kind, "ident": ident}, ref)
		}
	}
}

// activityPoints returns the points of a range, keyed by time.
func activityPoints(t *testing.T, s *Server, rng string) ([]any, map[float64][]any) {
	t.Helper()
	points := object(t, s.Catalog().ActivityHistory(rng))["points"].([]any)
	byTime := map[float64][]any{}
	for _, p := range points {
		byTime[p.([]any)[0].(float64)] = p.([]any)
	}
	return points, byTime
}

func TestAdvanceActivity(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	old, oldByTime := activityPoints(t, s, "7d")
	start := s.Catalog().Now

	s.Advance(17 * time.Minute) // three 5-minute points, and two minutes over
	assert.Equal(t, start.Add(17*time.Minute), s.Catalog().Now)
	points, _ := activityPoints(t, s, "7d")
	require.Len(t, points, len(old), "the window keeps its length")
	for i, p := range points[:len(points)-3] {
		q := p.([]any)
		want := oldByTime[q[0].(float64)]
		require.NotNil(t, want, "point %d is an old one", i)
		assert.Equal(t, want[:2], q[:2], "an old point keeps its time and value")
		assert.Equal(t, want[3:], q[3:])
		assert.Equal(t, 0.0, q[2], "only the newest point is current")
	}
	for i, p := range points[len(points)-3:] {
		q := p.([]any)
		assert.Equal(t, float64(start.Add(time.Duration(i+1)*5*time.Minute).UnixMilli()), q[0])
		assert.Equal(t, i == 2, q[2] == 1.0)
	}

	// The same total, in other steps, serves the same bytes.
	other := NewServer()
	defer other.Close()
	other.Advance(10 * time.Minute)
	other.Advance(7 * time.Minute)
	for _, rng := range []string{"24h", "7d", "30d"} {
		assert.Equal(t, get(t, s, "/api/activity-history?range="+rng).body,
			get(t, other, "/api/activity-history?range="+rng).body, rng)
	}
	s.Advance(0)
	s.Advance(-time.Hour)
	assert.Equal(t, start.Add(17*time.Minute), s.Catalog().Now, "only forward")
}

func TestAdvanceAnalytics(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	path := "/api/analytics/packages/game/1337"
	old := maps(t, getOK(t, s, path)["history"])
	s.Advance(50 * time.Hour)
	history := maps(t, getOK(t, s, path)["history"])
	require.Len(t, history, len(old))
	assert.Equal(t, old[2:], history[:len(history)-2], "old entries keep their timestamps and values")
	for _, e := range history[len(history)-2:] {
		at, err := time.Parse(time.RFC3339Nano, e["capturedAt"].(string))
		require.NoError(t, err)
		assert.True(t, at.After(referenceTime) && !at.After(s.Catalog().Now), "new entry at %v", at)
	}
	assert.Equal(t, history, maps(t, object(t, s.Catalog().PackageReport("game", "1337"))["history"]))
}
