package gamedata

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeHistoryRefusesBadEntries(t *testing.T) {
	t.Parallel()
	good := `{"capturedAt":"2026-11-20T10:00:00Z","players":1}`
	tests := []struct {
		name    string
		bad     string
		wantMsg string
	}{
		{"capturedAt missing", `{"players":1}`, "capturedAt is missing"},
		{"capturedAt without zone", `{"capturedAt":"2026-11-20T10:00:00"}`, "capturedAt"},
		{"capturedAt not a timestamp", `{"capturedAt":"yesterday"}`, "capturedAt"},
		{"capturedAt a number", `{"capturedAt":1763200800000}`, "want an ISO 8601 string"},
		{"capturedAt null", `{"capturedAt":null}`, "capturedAt"},
		{"partialCoverage not boolean", `{"capturedAt":"2026-11-20T10:00:00Z","partialCoverage":1}`, "partialCoverage is 1"},
		{"entry not an object", `[1,2]`, "history[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, f, err := decodeFields([]byte(`{"history":[` + good + `,` + tt.bad + `,` + good + `]}`))
			require.NoError(t, err)
			_, err = decodeHistory(f)
			var de *DecodeError
			require.True(t, errors.As(err, &de), "got %v", err)
			assert.Equal(t, "history[1]", de.Member)
			assert.Contains(t, de.Error(), tt.wantMsg)
		})
	}
}

func TestDecodeHistoryMember(t *testing.T) {
	t.Parallel()
	entry := `{"capturedAt":"2026-11-20T10:00:00Z"}`
	tests := []struct {
		name    string
		body    string
		want    int
		wantErr string
	}{
		{"history member", `{"history":[` + entry + `,` + entry + `]}`, 2, ""},
		{"history wins", `{"history":[` + entry + `],"snapshots":[` + entry + `]}`, 1, ""},
		{"the only array of capturedAt objects", `{"snapshots":[` + entry + `],"tags":["a"],"other":[{"x":1}]}`, 1, ""},
		{"no history at all", `{"ident":"a","tags":["a"]}`, 0, ""},
		{"empty history", `{"history":[]}`, 0, ""},
		{"history not an array", `{"history":{"a":1}}`, 0, "want an array"},
		{"several, none named history", `{"daily":[` + entry + `],"hourly":[` + entry + `]}`, 0, `several histories ("daily", "hourly")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, f, err := decodeFields([]byte(tt.body))
			require.NoError(t, err)
			h, err := decodeHistory(f)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, h, tt.want)
		})
	}
}
