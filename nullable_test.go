package gamedata

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNullableStates(t *testing.T) {
	t.Parallel()
	var absent Nullable[float64]
	tests := []struct {
		name                 string
		n                    Nullable[float64]
		value                float64
		valid, null, present bool
	}{
		{"absent", absent, 0, false, false, false},
		{"null", Null[float64](), 0, false, true, true},
		{"zero", Value(0.0), 0, true, false, true},
		{"value", Value(2.5), 2.5, true, false, true},
	}
	for _, tt := range tests {
		v, ok := tt.n.Get()
		assert.Equal(t, tt.value, v, tt.name)
		assert.Equal(t, tt.valid, ok, tt.name)
		assert.Equal(t, tt.null, tt.n.IsNull(), tt.name)
		assert.Equal(t, tt.present, tt.n.Present(), tt.name)
	}
}

func TestNullableJSON(t *testing.T) {
	t.Parallel()
	type record struct {
		Players Nullable[float64] `json:"players,omitzero"`
		Peak    Nullable[float64] `json:"peak,omitzero"`
		Rating  Nullable[float64] `json:"rating,omitzero"`
	}
	var r record
	require.NoError(t, json.Unmarshal([]byte(`{"players":0,"peak":null}`), &r))
	assert.Equal(t, Value(0.0), r.Players, "zero is a value")
	assert.True(t, r.Peak.IsNull(), "null is unavailable")
	assert.False(t, r.Rating.Present(), "absent is absent")

	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"players":0,"peak":null}`, string(b), "the three states survive a round trip")

	assert.Error(t, json.Unmarshal([]byte(`{"players":"many"}`), &r))
}

// A Nullable prints its value, or null: a missing metric never prints as
// 0, and a null time bound never as a struct.
func TestNullablePrintsAndDefaults(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		v    fmt.Stringer
		want string
	}{
		{Value(5810.0), "5810"},
		{Value(1302.5), "1302.5"},
		{Value(0.0), "0"},
		{Null[float64](), "null"},
		{Nullable[float64]{}, "null"},
		{Value(at), "2026-11-20 10:00:00 +0000 UTC"},
		{Null[time.Time](), "null"},
	} {
		assert.Equal(t, tt.want, tt.v.String())
		assert.Equal(t, tt.want, fmt.Sprintf("%v", tt.v))
	}
	assert.Equal(t, "players: null", fmt.Sprintf("players: %v", Null[float64]()))
	assert.Equal(t, 7.0, Value(7.0).Or(-1))
	assert.Equal(t, -1.0, Null[float64]().Or(-1))
	assert.Equal(t, -1.0, Nullable[float64]{}.Or(-1))
}

// A record's metrics re-encode as sent: a value as its value, null as null.
func TestNullableMarshalsFaithfully(t *testing.T) {
	t.Parallel()
	f, _, err := decodeFields([]byte(`{"players":5810,"peak":null,"avg":12.25}`))
	require.NoError(t, err)
	out, err := json.Marshal(map[string]Nullable[float64]{
		"players": f.Metric("players"), "peak": f.Metric("peak"), "avg": f.Metric("avg"),
	})
	require.NoError(t, err)
	assert.JSONEq(t, `{"players":5810,"peak":null,"avg":12.25}`, string(out))
}
