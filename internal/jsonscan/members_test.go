package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetMembers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{}`, `{"page":2,"x":"y"}`},
		{`{"a":1}`, `{"a":1,"page":2,"x":"y"}`},
		{`{"page":1,"a":[1,{"page":9}],"page":3}`, `{"page":2,"a":[1,{"page":9}],"page":2,"x":"y"}`},
		{`{"p\u0061ge":1}`, `{"p\u0061ge":2,"x":"y"}`},
	} {
		got, err := SetMembers([]byte(tt.in), []Member{{Name: "page", Value: []byte("2")}, {Name: "x", Value: []byte(`"y"`)}})
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, string(got), tt.in)
	}
	same := []byte(`{"a":1}`)
	got, err := SetMembers(same, nil)
	require.NoError(t, err)
	assert.Equal(t, same, got, "nothing to set: as it is")
}

func TestIndexAndLookup(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"a":1,"b\u0022":[true],"a":"last","c":null}`)
	m, canonical, err := Index(raw)
	require.NoError(t, err)
	assert.True(t, canonical)
	assert.Len(t, m, 3)
	for name, want := range map[string]string{"a": `"last"`, `b"`: "[true]", "c": "null"} {
		assert.Equal(t, want, string(m[name]), name)
		v, ok := Lookup(raw, name)
		assert.True(t, ok, name)
		assert.Equal(t, want, string(v), "%s: a lookup reads as the index", name)
	}
	_, ok := Lookup(raw, "d")
	assert.False(t, ok)
	_, canonical, err = Index([]byte(`{"a": 1}`))
	require.NoError(t, err)
	assert.False(t, canonical)
	_, _, err = Index([]byte(`{"a":1`))
	assert.Error(t, err)
}
