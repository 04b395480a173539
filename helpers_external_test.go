package gamedata_test

// Helpers shared by the tests of package gamedata_test, which use the
// public API only; helpers_test.go holds those of package gamedata.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// asJSON turns v (raw JSON bytes, or a Go value such as a catalogue entry)
// into the generic value encoding/json decodes it to, so that a client's
// result and the twin's ground truth compare with assert.Equal.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	raw, ok := v.([]byte)
	if rm, isRaw := v.(json.RawMessage); isRaw {
		raw, ok = rm, true
	}
	if !ok {
		var err error
		raw, err = json.Marshal(v)
		require.NoError(t, err)
	}
	var out any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// entriesJSON is the JSON array of the records' bodies, as sent.
func entriesJSON[T interface{ JSON() json.RawMessage }](items []T) []byte {
	parts := make([][]byte, len(items))
	for i, it := range items {
		parts[i] = it.JSON()
	}
	return append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']')
}

func walkJSON[T interface{ JSON() json.RawMessage }](seq func(func(T, error) bool)) ([]byte, error) {
	var items []T
	var err error
	for it, e := range seq {
		if e != nil {
			err = e
			break
		}
		items = append(items, it)
	}
	return entriesJSON(items), err
}

func pageTruth[T any](all []T, page, size int) map[string]any {
	lo := min((page-1)*size, len(all))
	hi := min(page*size, len(all))
	return map[string]any{"items": all[lo:hi]}
}

// transportFunc is an http.RoundTripper made of a function.
type transportFunc func(*http.Request) (*http.Response, error)

func (f transportFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
