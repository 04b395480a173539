package gamedata

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeActivityPoints(t *testing.T) {
	t.Parallel()
	ms := func(v int64) time.Time { return time.UnixMilli(v).UTC() }
	tests := []struct {
		name  string
		point string
		want  ActivityPoint
	}{
		{"average", `[1000,12.75,0,400,1000,1,0]`, ActivityPoint{Time: ms(1000), Players: Value(12.75), IntervalStart: Value(ms(400)), IntervalEnd: Value(ms(1000)), Aggregation: AggregationAverage}},
		{"snapshot with null bounds", `[1000,3,1,null,null,0,0]`, ActivityPoint{Time: ms(1000), Players: Value(3.0), Current: true, IntervalStart: Null[time.Time](), IntervalEnd: Null[time.Time]()}},
		{"null players is unavailable, not zero", `[1000,null,0,null,null,0,1]`, ActivityPoint{Time: ms(1000), Players: Null[float64](), IntervalStart: Null[time.Time](), IntervalEnd: Null[time.Time](), PartialCoverage: true}},
		{"zero players is zero", `[1000,0,0,null,null,0,0]`, ActivityPoint{Time: ms(1000), Players: Value(0.0), IntervalStart: Null[time.Time](), IntervalEnd: Null[time.Time]()}},
		{"time with exponent", `[1.7632e12,1,0,null,null,0,0]`, ActivityPoint{Time: ms(1763200000000), Players: Value(1.0), IntervalStart: Null[time.Time](), IntervalEnd: Null[time.Time]()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, err := decodeActivityHistory([]byte(`{"points":[` + tt.point + `]}`))
			require.NoError(t, err)
			require.Len(t, h.Points, 1)
			assert.Equal(t, tt.want, h.Points[0])
		})
	}
}

func TestDecodeActivityRefusesBadPoints(t *testing.T) {
	t.Parallel()
	good := `[1000,1,0,null,null,0,0]`
	tests := []struct {
		name       string
		bad        string
		wantMember string
		wantMsg    string
	}{
		{"six elements", `[1000,1,0,null,null,0]`, "points[2]", "6 elements, want 7"},
		{"eight elements", `[1000,1,0,null,null,0,0,0]`, "points[2]", "8 elements, want 7"},
		{"not an array", `{"t":1000}`, "points[2]", "want a seven-element array"},
		{"nine elements", `[1000,1,0,null,null,0,0,0,0]`, "points[2]", "9 elements, want 7"},
		{"broken JSON inside", `[1000,1,0,null,null,0,0}`, "points[2]", "invalid character"},
		{"current flag 2", `[1000,1,2,null,null,0,0]`, "points[2][2]", "current flag: got 2, want 0 or 1"},
		{"aggregation flag true", `[1000,1,0,null,null,true,0]`, "points[2][5]", "aggregation flag"},
		{"partial flag null", `[1000,1,0,null,null,0,null]`, "points[2][6]", "partial-coverage flag"},
		{"time as a string", `["2026-11-20T10:00:00Z",1,0,null,null,0,0]`, "points[2][0]", "time: got"},
		{"time null", `[null,1,0,null,null,0,0]`, "points[2][0]", "time"},
		{"time fractional", `[1000.5,1,0,null,null,0,0]`, "points[2][0]", "whole Unix milliseconds"},
		{"players as a string", `[1000,"12",0,null,null,0,0]`, "points[2][1]", "players"},
		{"interval start as a string", `[1000,1,0,"x",null,0,0]`, "points[2][3]", "interval start"},
		{"interval end as a bool", `[1000,1,0,null,false,0,0]`, "points[2][4]", "interval end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := decodeActivityHistory([]byte(`{"points":[` + good + `,` + good + `,` + tt.bad + `,` + good + `]}`))
			var de *DecodeError
			require.True(t, errors.As(err, &de), "got %v", err)
			assert.Equal(t, tt.wantMember, de.Member)
			assert.Contains(t, de.Error(), tt.wantMsg)
		})
	}
}

func TestDecodeActivityEnvelope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		body       string
		wantPoints int
		wantErr    string
	}{
		{"points member", `{"points":[[1,1,0,null,null,0,0]],"range":"7d"}`, 1, ""},
		{"the only array of arrays", `{"data":[[1,1,0,null,null,0,0],[2,1,0,null,null,0,0]],"labels":["a"]}`, 2, ""},
		{"empty points", `{"points":[]}`, 0, ""},
		{"no points", `{"range":"7d"}`, 0, "no points member"},
		{"two arrays of arrays", `{"a":[[1]],"b":[[2]]}`, 0, "no points member and 2 arrays"},
		{"coverage not an array", `{"points":[],"partialCoverage":5}`, 0, "partialCoverage"},
		{"coverage entry not a timestamp", `{"points":[],"partialCoverage":[1000,true]}`, 0, "partialCoverage[1]"},
		{"not an object", `[[1,1,0,null,null,0,0]]`, 0, "activity history"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, err := decodeActivityHistory([]byte(tt.body))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, h.Points, tt.wantPoints)
		})
	}
}

func TestPartialCoverageArrayMarksPoints(t *testing.T) {
	t.Parallel()
	h, err := decodeActivityHistory([]byte(`{"points":[[1000,5,0,null,null,0,0],[2000,5,0,null,null,0,0],[3000,5,0,null,null,0,1]],` +
		`"partialCoverage":[2000,"1970-01-01T00:00:03Z"]}`))
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true, true}, []bool{h.Points[0].PartialCoverage, h.Points[1].PartialCoverage, h.Points[2].PartialCoverage})
	assert.Len(t, h.PartialCoverage, 2)
}

func TestAggregationString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "snapshot", AggregationSnapshot.String())
	assert.Equal(t, "average", AggregationAverage.String())
	assert.Equal(t, "Aggregation(7)", Aggregation(7).String())
}

func TestDecodeActivityAllocations(t *testing.T) {
	body := activityBody(1000)
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := decodeActivityHistory(body); err != nil {
			t.Fatal(err)
		}
	})
	// The history, the index of its members (a map, its storage and a
	// name), the points and the partialCoverage times: nothing per point.
	assert.LessOrEqual(t, allocs, 6.0)
}

func TestPartialCoverageLongUnsortedList(t *testing.T) {
	t.Parallel()
	// 100 listed times, more than fit on the stack, in reverse order; every
	// third point is listed.
	body := []byte(`{"points":[`)
	var listed []byte
	for i := 299; i >= 0; i-- {
		if i%3 == 0 {
			listed = fmt.Appendf(listed, "%d,", 1000+i)
		}
	}
	for i := range 300 {
		if i > 0 {
			body = append(body, ',')
		}
		body = fmt.Appendf(body, "[%d,1,0,null,null,0,0]", 1000+i)
	}
	body = fmt.Appendf(body, `],"partialCoverage":[%s]}`, listed[:len(listed)-1])
	h, err := decodeActivityHistory(body)
	require.NoError(t, err)
	require.Len(t, h.PartialCoverage, 100)
	for i, p := range h.Points {
		assert.Equal(t, i%3 == 0, p.PartialCoverage, "point %d", i)
	}
}
