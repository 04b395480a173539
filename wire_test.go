package gamedata

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// wireValue is a value of an exported type, for the round trip through
// encoding/json.
type wireValue struct {
	v any
	// sent is the body the twin sent, when v is a whole response: v must
	// marshal to exactly these bytes.
	sent []byte
	// built is true for a value built in Go, which must marshal to a
	// shape the SDK decodes back to the same typed fields. A decoded
	// value must come back whole, Fields included.
	built bool
	// added names the members MarshalJSON sets that the value's Fields
	// did not hold, such as the range of a summary keyed by range.
	added []string
	// goOnly names the fields of v that are no part of the wire shape,
	// such as the Response a Page carries (what the call learnt, not what
	// the service sent): they must be left out of what v marshals to, and
	// unmarshal to zero.
	goOnly []string
}

// wireTwin is the twin the values are decoded from, and a client of it.
type wireTwin struct {
	t   *testing.T
	ctx context.Context
	url string
	cat *gamedatatest.Catalog
	c   *Client
}

// get returns the body the twin serves at path, as a user's own request
// would read it.
func (w *wireTwin) get(path string) []byte {
	w.t.Helper()
	req, err := http.NewRequestWithContext(w.ctx, http.MethodGet, w.url+path, nil)
	require.NoError(w.t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(w.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(w.t, err)
	require.Equal(w.t, http.StatusOK, resp.StatusCode, path)
	return b
}

// wireCases gives values of every exported type of the package, by name
// (a generic type by its name alone), or says why a type is no value to
// encode.
var wireCases = map[string]struct {
	values func(w *wireTwin) []wireValue
	skip   string
}{
	"Package": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		p, err := w.c.Packages.Get(w.ctx, e.Kind, e.Ident)
		require.NoError(w.t, err)
		return []wireValue{
			{v: *p, sent: w.get("/api/packages/" + e.Kind + "/" + url.PathEscape(e.Ident))},
			{v: Package{Kind: KindGame, Ident: "built"}, built: true},
			{v: Package{}, built: true},
		}
	}},
	"Server": {values: func(w *wireTwin) []wireValue {
		id := w.cat.Servers[0].ID
		s, err := w.c.Servers.Get(w.ctx, id)
		require.NoError(w.t, err)
		return []wireValue{
			{v: *s, sent: w.get("/api/servers/" + url.PathEscape(id))},
			{v: Server{ID: "203.0.113.7:27015"}, built: true},
		}
	}},
	"Organization": {values: func(w *wireTwin) []wireValue {
		ident := w.cat.Organizations[0].Ident
		o, err := w.c.Organizations.Get(w.ctx, ident)
		require.NoError(w.t, err)
		return []wireValue{
			{v: *o, sent: w.get("/api/organizations/" + url.PathEscape(ident))},
			{v: Organization{Ident: "built"}, built: true},
		}
	}},
	"DashboardEntry": {values: func(w *wireTwin) []wireValue {
		p, err := w.c.Dashboard.List(w.ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 3}})
		require.NoError(w.t, err)
		servers, err := w.c.Dashboard.List(w.ctx, &DashboardOptions{Kind: "server", ListOptions: ListOptions{PageSize: 1}})
		require.NoError(w.t, err)
		return []wireValue{
			{v: p.Items[0], sent: w.cat.Packages[0].JSON()},
			{v: servers.Items[0], sent: w.cat.Servers[0].JSON()},
			{v: DashboardEntry{Kind: KindGame, Ident: "built"}, built: true},
			{v: DashboardEntry{ID: "203.0.113.7:27015"}, built: true},
		}
	}},
	"Page": {values: func(w *wireTwin) []wireValue {
		entries, err := w.c.Dashboard.List(w.ctx, &DashboardOptions{ListOptions: ListOptions{Page: 2, PageSize: 5}})
		require.NoError(w.t, err)
		orgs, err := w.c.Organizations.List(w.ctx, &ListOptions{PageSize: 4})
		require.NoError(w.t, err)
		return []wireValue{
			{v: *entries, sent: w.get("/api/dashboard?page=2&pageSize=5"), goOnly: pageGoOnly},
			{v: *orgs, sent: w.get("/api/organizations?page=1&pageSize=4"), goOnly: pageGoOnly},
			{v: Page[DashboardEntry]{Items: []DashboardEntry{{Kind: KindGame, Ident: "a"}}, Pagination: Pagination{HasNext: true, Page: 2}}, built: true},
			{v: Page[Organization]{}, built: true},
		}
	}},
	"Pagination": {values: func(w *wireTwin) []wireValue {
		p, err := w.c.Organizations.List(w.ctx, &ListOptions{Page: 2, PageSize: 2})
		require.NoError(w.t, err)
		return []wireValue{
			{v: p.Pagination},
			{v: Pagination{HasNext: true, Page: 3}, built: true},
		}
	}},
	"SearchResults": {values: func(w *wireTwin) []wireValue {
		r, err := w.c.Search(w.ctx, &SearchOptions{Query: "a"})
		require.NoError(w.t, err)
		return []wireValue{
			{v: *r, sent: w.get("/api/search?q=a")},
			{v: SearchResults{Packages: []Package{{Kind: KindGame, Ident: "a"}}, Servers: []Server{}}, built: true},
		}
	}},
	"AnalyticsSearchResults": {values: func(w *wireTwin) []wireValue {
		r, err := w.c.Analytics.Search(w.ctx, &SearchOptions{Query: "a"})
		require.NoError(w.t, err)
		return []wireValue{
			{v: *r, sent: w.get("/api/analytics/packages?q=a")},
			{v: AnalyticsSearchResults{Organizations: []Organization{{Ident: "o"}}}, built: true},
		}
	}},
	"PackageReport": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		r, err := w.c.Analytics.Package(w.ctx, e.Kind, e.Ident)
		require.NoError(w.t, err)
		return []wireValue{
			{v: *r, sent: w.get("/api/analytics/packages/" + e.Kind + "/" + url.PathEscape(e.Ident))},
			{v: PackageReport{Kind: KindGame, Ident: "a", History: []HistoryEntry{builtEntry}, Summaries: Summaries{builtSummary}}, built: true},
		}
	}},
	"OrganizationReport": {values: func(w *wireTwin) []wireValue {
		ident := w.cat.Organizations[0].Ident
		r, err := w.c.Analytics.Organization(w.ctx, ident)
		require.NoError(w.t, err)
		return []wireValue{
			{v: *r, sent: w.get("/api/analytics/organizations/" + url.PathEscape(ident))},
			{v: OrganizationReport{Ident: "o", History: []HistoryEntry{}}, built: true},
		}
	}},
	"HistoryEntry": {values: func(w *wireTwin) []wireValue {
		r := wireReport(w)
		require.NotEmpty(w.t, r.History)
		return []wireValue{{v: r.History[0]}, {v: r.History[len(r.History)-1]}, {v: builtEntry, built: true}}
	}},
	"RangeSummary": {values: func(w *wireTwin) []wireValue {
		var values []wireValue
		for _, s := range wireReport(w).Summaries {
			values = append(values, wireValue{v: s, added: []string{"range"}})
		}
		require.NotEmpty(w.t, values)
		return append(values, wireValue{v: builtSummary, built: true})
	}},
	"Summaries": {values: func(w *wireTwin) []wireValue {
		return []wireValue{{v: wireReport(w).Summaries, added: []string{"range"}}, {v: Summaries{builtSummary}, built: true}}
	}},
	"ActivityHistory": {values: func(w *wireTwin) []wireValue {
		return []wireValue{
			{v: wireHistory(w), sent: w.get("/api/activity-history?range=7d")},
			{v: ActivityHistory{Points: []ActivityPoint{partialPoint}, PartialCoverage: []time.Time{partialPoint.Time}}, built: true},
		}
	}},
	"ActivityPoint": {values: func(w *wireTwin) []wireValue {
		h := wireHistory(w)
		values := []wireValue{{v: builtPoint, built: true}}
		for _, p := range h.Points {
			values = append(values, wireValue{v: p})
		}
		return values
	}},
	"Aggregation": {values: func(w *wireTwin) []wireValue {
		return []wireValue{{v: wireHistory(w).Points[0].Aggregation}, {v: AggregationAverage, built: true}}
	}},
	"Nullable": {values: func(w *wireTwin) []wireValue {
		h := wireHistory(w)
		var values []wireValue
		for _, p := range h.Points {
			values = append(values, wireValue{v: p.Players}, wireValue{v: p.IntervalStart})
		}
		return append(values, wireValue{v: Value(2.5), built: true}, wireValue{v: Null[float64](), built: true})
	}},
	"Fields": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		p, err := w.c.Packages.Get(w.ctx, e.Kind, e.Ident)
		require.NoError(w.t, err)
		return []wireValue{{v: p.Fields, sent: w.cat.Package(e.Kind, e.Ident)}, {v: Fields{}, built: true}}
	}},
	"Untrusted": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		p, err := w.c.Packages.Get(w.ctx, e.Kind, e.Ident)
		require.NoError(w.t, err)
		title, ok := p.Text("title")
		require.True(w.t, ok)
		return []wireValue{{v: title}, {v: NewUntrusted("a\x1b[31mb"), built: true}}
	}},
	"PackageRef": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		return []wireValue{{v: PackageRef{Kind: e.Kind, Ident: e.Ident}, built: true}}
	}},
	"Change": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		p, err := w.c.Packages.Get(w.ctx, e.Kind, e.Ident)
		require.NoError(w.t, err)
		page, err := w.c.Dashboard.List(w.ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 1}})
		require.NoError(w.t, err)
		return []wireValue{
			{v: Change[*Package]{Op: Updated, Old: p, New: p}},
			{v: Change[*Package]{Op: Removed, Old: p}},
			{v: Change[DashboardEntry]{Op: Added, New: page.Items[0]}},
		}
	}},
	"Op": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: Added, built: true}, {v: Updated, built: true}, {v: Removed, built: true}}
	}},
	"APIError": {values: func(w *wireTwin) []wireValue {
		_, err := w.c.Packages.Get(w.ctx, KindGame, "no-such-package")
		var apiErr *APIError
		require.True(w.t, errors.As(err, &apiErr), "%v", err)
		return []wireValue{{v: *apiErr}}
	}},
	"ClientStats": {values: func(w *wireTwin) []wireValue { return []wireValue{{v: w.c.Stats()}} }},
	"WalkStats": {values: func(w *wireTwin) []wireValue {
		var stats WalkStats
		for _, err := range w.c.Organizations.All(w.ctx, &ListOptions{PageSize: 7}, &WalkOptions{Stats: &stats}) {
			require.NoError(w.t, err)
		}
		return []wireValue{{v: stats}, {v: WalkStats{Pages: 2, Items: 150, Duplicates: 1}, built: true}}
	}},
	"WalkOptions": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: WalkOptions{MaxItems: 10, Stats: &WalkStats{Pages: 1}}, built: true}}
	}},
	"ListOptions": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: ListOptions{Sort: "name", Page: 2, PageSize: 10, Filters: []string{"online"}, Params: url.Values{"x": {"1"}}}, built: true}}
	}},
	"DashboardOptions": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: DashboardOptions{Kind: KindGame, ListOptions: ListOptions{Page: 3}}, built: true}}
	}},
	"SearchOptions": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: SearchOptions{Query: "space", Params: url.Values{"x": {"1"}}}, built: true}}
	}},
	"ActivityOptions": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: ActivityOptions{Range: Range7d}, built: true}}
	}},
	"Response": {values: func(w *wireTwin) []wireValue {
		e := w.cat.Packages[0]
		var r Response
		_, err := w.c.Packages.Get(w.ctx, e.Kind, e.Ident, WithResponseInto(&r))
		require.NoError(w.t, err)
		return []wireValue{{v: r}, {v: Response{StatusCode: http.StatusNotModified, Attempts: 2, Cache: CacheRevalidated, Duration: time.Second}, built: true}}
	}},
	"CacheStatus": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: CacheHit, built: true}, {v: CacheOff, built: true}}
	}},
	"CacheMode": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: CacheSkip, built: true}}
	}},
	"StartEvent": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: StartEvent{Route: "/api/servers/{id}", URL: "http://127.0.0.1/api/servers/s1"}, built: true}}
	}},
	"ThrottleEvent": {values: func(*wireTwin) []wireValue {
		return []wireValue{{v: ThrottleEvent{Route: "/api/servers/{id}", Attempt: 1, StatusCode: http.StatusTooManyRequests, RetryAfter: time.Second}, built: true}}
	}},

	"Client":               {skip: "a handle holding connections, a limiter and a cache, not a value"},
	"Option":               {skip: "a function"},
	"Cache":                {skip: "an interface that stores implement"},
	"ActivityService":      {skip: "a handle on a Client"},
	"AnalyticsService":     {skip: "a handle on a Client"},
	"DashboardService":     {skip: "a handle on a Client"},
	"OrganizationsService": {skip: "a handle on a Client"},
	"PackagesService":      {skip: "a handle on a Client"},
	"ServersService":       {skip: "a handle on a Client"},
	"PageError":            {skip: "an error wrapping an error, which encoding/json cannot decode"},
	"ItemError":            {skip: "an error wrapping an error, which encoding/json cannot decode"},
	"WatchDelayError":      {skip: "an error wrapping an error, which encoding/json cannot decode"},
	"DecodeError":          {skip: "an error wrapping an error, which encoding/json cannot decode"},
	"PanicError":           {skip: "a panic carried to the caller's goroutine, holding any value: never data to encode"},
	"RetryEvent":           {skip: "a hook's event holding the attempt's error, which encoding/json cannot decode"},
	"DoneEvent":            {skip: "a hook's event holding the call's error, which encoding/json cannot decode"},
	"CallOption":           {skip: "a function"},
	"Middleware":           {skip: "a function"},
	"Hooks":                {skip: "a set of functions"},
	"Next":                 {skip: "a handle on a call's middleware chain, valid only while the middleware runs"},
}

// pageGoOnly are the fields of a Page that are no part of its wire shape.
var pageGoOnly = []string{"Response"}

var (
	builtEntry   = HistoryEntry{CapturedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), PartialCoverage: true}
	builtSummary = RangeSummary{Range: Range7d, PartialCoverage: true}
	builtPoint   = ActivityPoint{
		Time:          time.UnixMilli(1763632800000).UTC(),
		Players:       Value(12.5),
		IntervalStart: Value(time.UnixMilli(1763632500000).UTC()),
		IntervalEnd:   Null[time.Time](),
		Aggregation:   AggregationAverage,
	}
)

// partialPoint is builtPoint, listed in a history's partialCoverage.
var partialPoint = func() ActivityPoint {
	p := builtPoint
	p.PartialCoverage = true
	return p
}()

func wireReport(w *wireTwin) *PackageReport {
	e := w.cat.Packages[0]
	r, err := w.c.Analytics.Package(w.ctx, e.Kind, e.Ident)
	require.NoError(w.t, err)
	return r
}

func wireHistory(w *wireTwin) ActivityHistory {
	h, err := w.c.Activity.History(w.ctx, &ActivityOptions{Range: Range7d})
	require.NoError(w.t, err)
	return *h
}

// TestEveryTypeRoundTripsInTheWireShape marshals values of every exported
// type with encoding/json, unmarshals what it wrote and compares: a value
// the SDK decoded writes what the service sent and comes back whole,
// typed fields and Fields alike; a value built in Go writes a shape the
// SDK decodes back to the same typed fields. A type added to the package
// fails the test until it has a case here.
func TestEveryTypeRoundTripsInTheWireShape(t *testing.T) {
	t.Parallel()
	exported := exportedTypes(t)
	assert.ElementsMatch(t, exported, slices.Collect(maps.Keys(wireCases)), "every exported type needs a case in wireCases, and every case a type")

	twin := gamedatatest.NewServer()
	t.Cleanup(twin.Close)
	w := &wireTwin{t: t, ctx: context.Background(), url: twin.URL, cat: twin.Catalog(), c: newTestClient(t, twin.URL)}
	for _, name := range exported {
		tc := wireCases[name]
		if tc.values == nil {
			continue
		}
		for i, wv := range tc.values(w) {
			checkRoundTrip(t, name, i, wv)
		}
	}
}

// checkRoundTrip checks one value.
func checkRoundTrip(t *testing.T, name string, i int, wv wireValue) {
	t.Helper()
	b, err := json.Marshal(wv.v)
	require.NoError(t, err, "%s #%d", name, i)
	if wv.sent != nil {
		assert.Equal(t, wireForm(t, wv.sent), string(b), "%s #%d: marshalled, a decoded value writes what the service sent", name, i)
	}
	back := reflect.New(reflect.TypeOf(wv.v))
	require.NoError(t, json.Unmarshal(b, back.Interface()), "%s #%d: %s", name, i, b)
	got := back.Elem().Interface()
	want, have := plain(t, reflect.ValueOf(wv.v), wv.built), plain(t, back.Elem(), wv.built)
	if !wv.built {
		dropAdded(want, have, wv.added)
	}
	for _, field := range wv.goOnly {
		require.IsType(t, map[string]any{}, want, "%s #%d: goOnly names fields of a struct", name, i)
		assert.Contains(t, want, field, "%s #%d: goOnly names a field of the type", name, i)
		assert.Zero(t, back.Elem().FieldByName(field).Interface(), "%s #%d: %s is no part of the wire shape and unmarshals to zero", name, i, field)
		delete(want.(map[string]any), field)
		delete(have.(map[string]any), field)
	}
	assert.Equal(t, want, have, "%s #%d: unmarshalled from %s", name, i, b)
	if !wv.built && len(wv.added) == 0 {
		// What a user's test sees: the value that came back is equal to
		// the one decoded, but for the fields no part of the wire shape.
		original := reflect.New(reflect.TypeOf(wv.v)).Elem()
		original.Set(reflect.ValueOf(wv.v))
		for _, field := range wv.goOnly {
			original.FieldByName(field).SetZero()
		}
		assert.Equal(t, original.Interface(), got, "%s #%d: unmarshalled, a decoded value is equal to itself", name, i)
	}
	again, err := json.Marshal(got)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(again), "%s #%d: marshalled again", name, i)
}

// dropAdded removes from have, recursively, the members named added
// wherever want's Fields did not hold them.
func dropAdded(want, have any, added []string) {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return
		}
		if fields, ok := w[fieldsKey].(map[string]string); ok {
			if hf, ok := h[fieldsKey].(map[string]string); ok {
				for _, name := range added {
					if _, sent := fields[name]; !sent {
						delete(hf, name)
						delete(w, "JSON") // the object as written holds the member
						delete(h, "JSON")
					}
				}
			}
		}
		for k := range w {
			dropAdded(w[k], h[k], added)
		}
	case []any:
		h, ok := have.([]any)
		for i := range w {
			if ok && i < len(h) {
				dropAdded(w[i], h[i], added)
			}
		}
	}
}

const fieldsKey = "Fields (members as sent)"

// plain turns v into maps, slices and scalars that compare with
// assert.Equal: Fields as its members' bytes, times as instants, a
// Nullable by its state and value. For a value built in Go (built), Fields
// are left out and a nil slice is an empty one, since a value decoded
// from it has both.
func plain(t *testing.T, v reflect.Value, built bool) any {
	t.Helper()
	if !v.IsValid() {
		return nil
	}
	if p, ok := plainLeaf(t, v, built); ok {
		return p
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(t, v.Elem(), built)
	case reflect.Struct:
		return plainStruct(t, v, built)
	case reflect.Slice, reflect.Map:
		if v.IsNil() && !built {
			return nil
		}
		return plainCollection(t, v, built)
	}
	return v.Interface()
}

// plainLeaf is plain for the values it compares by what they hold rather
// than by their fields: Fields, a time, Untrusted text, a Nullable.
func plainLeaf(t *testing.T, v reflect.Value, built bool) (any, bool) {
	switch x := v.Interface().(type) {
	case Fields:
		if built {
			return nil, true
		}
		members := map[string]string{}
		for _, name := range x.Names() {
			raw, _ := x.Raw(name)
			members[name] = wireForm(t, raw)
		}
		return map[string]any{fieldsKey: members, "JSON": wireForm(t, x.JSON())}, true
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano), true
	case Untrusted:
		return x.Unsanitized(), true
	case interface {
		IsNull() bool
		Present() bool
		MarshalJSON() ([]byte, error)
	}:
		b, err := x.MarshalJSON()
		require.NoError(t, err)
		return map[string]any{"null": x.IsNull(), "present": x.Present(), "value": string(b)}, true
	}
	return nil, false
}

// plainStruct is plain for a struct: its fields by name, an embedded
// Fields' members among them.
func plainStruct(t *testing.T, v reflect.Value, built bool) any {
	out := map[string]any{}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		require.True(t, f.IsExported(), "plain: %s has an unexported field %s: teach plain to compare it", v.Type(), f.Name)
		p := plain(t, v.Field(i), built)
		if f.Anonymous && f.Type == reflect.TypeFor[Fields]() {
			if m, ok := p.(map[string]any); ok {
				maps.Copy(out, m)
			}
			continue
		}
		out[f.Name] = p
	}
	return out
}

// plainCollection is plain for a slice or a map, not nil.
func plainCollection(t *testing.T, v reflect.Value, built bool) any {
	if v.Kind() == reflect.Map {
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			out[k.String()] = plain(t, v.MapIndex(k), built)
		}
		return out
	}
	out := []any{}
	for i := range v.Len() {
		out = append(out, plain(t, v.Index(i), built))
	}
	return out
}

// wireForm is b as json.Marshal writes the JSON a MarshalJSON returns:
// without insignificant white space, and with <, >, & and the line and
// paragraph separators escaped.
func wireForm(t *testing.T, b []byte) string {
	t.Helper()
	if b == nil {
		return ""
	}
	var compact, escaped bytes.Buffer
	require.NoError(t, json.Compact(&compact, b))
	json.HTMLEscape(&escaped, compact.Bytes())
	return escaped.String()
}

// exportedTypes lists the exported types the package's non-test files
// declare.
func exportedTypes(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var names []string
	for _, file := range entries {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				if name := spec.(*ast.TypeSpec).Name.Name; ast.IsExported(name) {
					names = append(names, name)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// A decoded value whose typed fields the SDK filled in, from the request
// or from the key of a summary, marshals them into the object, so that it
// decodes back to the same value; anything else is written as sent.
func TestMarshalSetsWhatTheSDKFilledIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    func(t *testing.T) any
		want string
	}{
		{"a package without kind and ident", func(t *testing.T) any {
			p, err := decodePackage([]byte(`{"title":"x","kind":null}`))
			require.NoError(t, err)
			p.Kind, p.Ident = KindGame, "a/b"
			return p
		}, `{"title":"x","kind":"game","ident":"a/b"}`},
		{"a package with a numeric ident", func(t *testing.T) any {
			p, err := decodePackage([]byte(`{"kind":"game","ident":1337}`))
			require.NoError(t, err)
			return p
		}, `{"kind":"game","ident":1337}`},
		{"a server sent twice its id", func(t *testing.T) any {
			s, err := decodeServer([]byte(`{"id":"a","id":"b"}`))
			require.NoError(t, err)
			s.ID = "c"
			return s
		}, `{"id":"c","id":"c"}`},
		{"an empty organization", func(t *testing.T) any {
			o, err := decodeOrganization([]byte(` { } `))
			require.NoError(t, err)
			o.Ident = "x"
			return o
		}, `{"ident":"x"}`},
		{"a pagination without page", func(t *testing.T) any {
			p, err := decodePagination([]byte(`{"hasNext":true}`), 3)
			require.NoError(t, err)
			return p
		}, `{"hasNext":true,"page":3}`},
		{"a pagination with a null page", func(t *testing.T) any {
			p, err := decodePagination([]byte(`{"page":null,"hasNext":false}`), 2)
			require.NoError(t, err)
			return p
		}, `{"page":2,"hasNext":false}`},
		{"a page whose pagination has no page", func(t *testing.T) any {
			p, err := decodePage([]byte(`{"items":[{"id":"s"}],"pagination":{"hasNext":false}}`), 4, decodeDashboardEntry)
			require.NoError(t, err)
			return p
		}, `{"items":[{"id":"s"}],"pagination":{"hasNext":false,"page":4}}`},
		{"a summary keyed by range", func(t *testing.T) any {
			s, err := decodeSummary("7d", []byte(`{"peak":null}`))
			require.NoError(t, err)
			return s
		}, `{"peak":null,"range":"7d"}`},
		{"a report without its identifiers", func(t *testing.T) any {
			r, err := decodePackageReport([]byte(`{"history":[]}`), KindGame, "x")
			require.NoError(t, err)
			return r
		}, `{"history":[],"kind":"game","ident":"x"}`},
		{"a history entry", func(t *testing.T) any {
			var h HistoryEntry
			require.NoError(t, json.Unmarshal([]byte(`{"capturedAt":"2026-11-20T10:00:00Z","players":5,"partialCoverage":true}`), &h))
			assert.True(t, h.PartialCoverage)
			assert.Equal(t, time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), h.CapturedAt.UTC())
			return h
		}, `{"capturedAt":"2026-11-20T10:00:00Z","players":5,"partialCoverage":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := tt.v(t)
			b, err := json.Marshal(v)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
			back := reflect.New(reflect.TypeOf(v))
			require.NoError(t, json.Unmarshal(b, back.Interface()))
			assert.Equal(t, plain(t, reflect.ValueOf(v), true), plain(t, back.Elem(), true), "the typed fields come back")
		})
	}
}

// Whatever a value's UnmarshalJSON accepts marshals to bytes that decode
// to the same value: decoding, marshalling and decoding again writes the
// same bytes, and nothing panics.
func FuzzRoundTrip(f *testing.F) {
	for i, name := range []string{"package.json", "dashboard_game_page1.json", "analytics_package.json", "analytics_organization.json", "activity_7d.json", "search.json", "organizations_page1.json"} {
		f.Add(uint8(i), fuzzFixture(f, name))
	}
	f.Add(uint8(1), []byte(`{"entries":[{"id":"s"}],"pagination":{"hasNext":false,"page":null}}`))
	f.Add(uint8(2), []byte(`{"summary":{"7d":{"peak":null}},"history":[]}`))
	types := []reflect.Type{
		reflect.TypeFor[Package](), reflect.TypeFor[Page[DashboardEntry]](), reflect.TypeFor[PackageReport](),
		reflect.TypeFor[OrganizationReport](), reflect.TypeFor[ActivityHistory](), reflect.TypeFor[SearchResults](),
		reflect.TypeFor[Page[Organization]](), reflect.TypeFor[RangeSummary](), reflect.TypeFor[ActivityPoint](),
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		typ := types[int(which)%len(types)]
		v := reflect.New(typ)
		if json.Unmarshal(b, v.Interface()) != nil {
			return
		}
		first, err := json.Marshal(v.Elem().Interface())
		require.NoError(t, err)
		again := reflect.New(typ)
		require.NoError(t, json.Unmarshal(first, again.Interface()), "%s", first)
		second, err := json.Marshal(again.Elem().Interface())
		require.NoError(t, err)
		require.Equal(t, string(first), string(second))
	})
}

// A body the service spaced out, or whose strings hold what encoding/json
// escapes ('<', '>', '&', U+2028), decodes to a value that a round trip
// through encoding/json gives back equal: Fields keeps the bytes in the
// form json.Marshal writes, small and large (indexed) objects alike.
func TestRoundTripOfSpacedAndEscapedBodies(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 5000) // past the size from which Fields keeps an index
	record := "{\n  \"kind\": \"game\",\n  \"ident\": \"tom-and-jerry\",\n  \"title\": \"Tom & Jerry <3> \u2028 \u2029\",\n  \"players\": 5\n}\n"
	for _, tt := range []struct {
		name string
		body string
		call func(c *Client) (any, error)
	}{
		{"a record", record, func(c *Client) (any, error) { return c.Packages.Get(context.Background(), KindGame, "tom-and-jerry") }},
		{"a large record", strings.Replace(record, "5\n", "5,\n  \"notes\": \""+long+"\"\n", 1),
			func(c *Client) (any, error) { return c.Packages.Get(context.Background(), KindGame, "tom-and-jerry") }},
		{"a page", "{ \"items\": [ " + strings.TrimSpace(record) + " ], \"pagination\": { \"hasNext\": false, \"page\": 1 } }",
			func(c *Client) (any, error) {
				p, err := c.Dashboard.List(context.Background(), nil)
				if p != nil {
					p.Response = Response{}
				}
				return p, err
			}},
		{"an activity history", "{ \"range\": \"7d & more\", \"notes\": \"" + long + "\", \"points\": [ [1000, 5, 0, null, null, 0, 0] ] }",
			func(c *Client) (any, error) { return c.Activity.History(context.Background(), nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Answer: gamedatatest.Respond(gamedatatest.Response{
				Header: http.Header{"Content-Type": {"application/json"}},
				Body:   []byte(tt.body),
			})})
			v, err := tt.call(newTestClient(t, url))
			require.NoError(t, err)
			b, err := json.Marshal(v)
			require.NoError(t, err)
			back := reflect.New(reflect.TypeOf(v).Elem())
			require.NoError(t, json.Unmarshal(b, back.Interface()))
			assert.Equal(t, v, back.Interface())
		})
	}
}
