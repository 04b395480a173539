package gamedata

import (
	"encoding/json"
	"testing"

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
		assert.Equal(t, tt.valid, tt.n.Valid(), tt.name)
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
