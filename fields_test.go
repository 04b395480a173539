package gamedata

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFieldsMetric(t *testing.T) {
	t.Parallel()
	f, _, err := decodeFields([]byte(`{"n":1.5,"z":0,"null":null,"s":"12","b":true,"huge":1e400,"neg":-3}`))
	require.NoError(t, err)
	assert.Equal(t, Value(1.5), f.Metric("n"))
	assert.Equal(t, Value(0.0), f.Metric("z"))
	assert.Equal(t, Value(-3.0), f.Metric("neg"))
	assert.True(t, f.Metric("null").IsNull())
	assert.False(t, f.Metric("absent").Present())
	for _, name := range []string{"s", "b", "huge"} {
		m := f.Metric(name)
		assert.True(t, m.Present(), name)
		_, ok := m.Get()
		assert.False(t, ok, name)
		assert.False(t, m.IsNull(), "%s: not a number is not null either", name)
	}
	assert.Equal(t, []string{"b", "huge", "n", "neg", "null", "s", "z"}, f.Names())
}

func TestFieldsTextAndTime(t *testing.T) {
	t.Parallel()
	f, _, err := decodeFields([]byte(`{"s":"a\u0007b","n":5,"iso":"2026-11-20T10:00:00+01:00","ms":1763200800000,"bad":"soon","null":null}`))
	require.NoError(t, err)
	s, ok := f.Text("s")
	assert.True(t, ok)
	assert.Equal(t, "ab", s.String())
	_, ok = f.Text("n")
	assert.False(t, ok, "a number is no text")
	_, ok = f.Text("null")
	assert.False(t, ok)

	assert.Equal(t, time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), timeField(t, f, "iso").UTC())
	assert.Equal(t, int64(1763200800000), timeField(t, f, "ms").UnixMilli())
	for _, name := range []string{"bad", "null", "absent", "s"} {
		_, ok := f.Time(name)
		assert.False(t, ok, name)
	}
}

func TestFieldsDecodeAndUnmarshal(t *testing.T) {
	t.Parallel()
	var zero Fields
	assert.Error(t, zero.Decode(&struct{}{}), "a zero Fields has nothing to decode")

	var p Package
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"game","ident":"x","extra":{"deep":[1,2]}}`), &p))
	assert.Equal(t, "game", p.Kind)
	raw, ok := p.Raw("extra")
	require.True(t, ok)
	assert.JSONEq(t, `{"deep":[1,2]}`, string(raw))

	built, err := json.Marshal(Package{Kind: "game", Ident: "y"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"game","ident":"y"}`, string(built), "a record built in Go marshals its identifiers")
	built, err = json.Marshal(DashboardEntry{ID: "203.0.113.7:27015"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"203.0.113.7:27015"}`, string(built))

	require.NoError(t, json.Unmarshal([]byte(`null`), &p), "null leaves a record as it is, as encoding/json does for a struct")
	assert.Equal(t, "x", p.Ident)
	assert.Error(t, json.Unmarshal([]byte(`[]`), &p), "a record is an object")
	assert.Error(t, json.Unmarshal([]byte(`{"kind":["game"]}`), &p), "an identifier is a string")
}

// decodeFields accepts exactly the objects encoding/json accepts into a
// map, and indexes the same members with the same values: it replaced
// json.Unmarshal on every page's envelope.
func FuzzDecodeFields(f *testing.F) {
	f.Add([]byte(`{"items":[{"kind":"game"}],"pagination":{"hasNext":false},"a\u0062":1,"ab":2}`))
	f.Add([]byte(`{"x":1,"x":[true,null,"\ud800"]} `))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"x":1}{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, got, err := decodeFields(b)
		var want map[string]json.RawMessage
		if json.Unmarshal(b, &want) != nil || want == nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for name, v := range want {
			require.Equal(t, string(v), string(got[name]), name)
			// Fields holds the value as json.Marshal writes it.
			canonical, err := json.Marshal(v)
			require.NoError(t, err)
			kept, ok := fields.Raw(name)
			require.True(t, ok, name)
			require.Equal(t, string(canonical), string(kept), name)
		}
		require.Len(t, fields.Names(), len(want))
	})
}
