package gamedata

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// activityBody builds a response of n points shaped like a long range at
// fine resolution: averages with fractional players and interval bounds,
// some null players, snapshots with null bounds at the end, and a
// partialCoverage array.
func activityBody(n int) []byte {
	b := []byte(`{"range":"all","points":[`)
	t := int64(1700000000000)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, t, 10)
		switch {
		case i%97 == 0:
			b = append(b, ",null"...)
		case i%2 == 0:
			b = append(b, ',')
			b = strconv.AppendFloat(b, float64(1000+i%5000)+0.25, 'f', -1, 64)
		default:
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(1000+i%5000), 10)
		}
		if i >= n-10 {
			b = append(b, fmt.Sprintf(",%d,null,null,0,0]", btoi(i == n-1))...)
		} else {
			b = append(b, fmt.Sprintf(",0,%d,%d,1,%d]", t-300000, t, btoi(i < n/10))...)
		}
		t += 300000
	}
	b = append(b, `],"partialCoverage":[1700000000000,1700000300000]}`...)
	return b
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}

func BenchmarkActivityDecode(b *testing.B) {
	body := activityBody(100_000)
	b.Run("sdk", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			h, err := decodeActivityHistory(body)
			if err != nil || len(h.Points) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline=encoding-json-any", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				Points [][]any `json:"points"`
			}
			if err := json.Unmarshal(body, &v); err != nil || len(v.Points) != 100_000 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkNestingBomb measures the refusal of 100,000 levels of nesting
// in a directory page against the decoding of a valid page of the same
// size: a refusal that descended the levels would cost many times more.
func BenchmarkNestingBomb(b *testing.B) {
	bomb := nestingBombs["in items"]
	valid := []byte(`{"items":[`)
	for i := 0; len(valid) < len(bomb); i++ {
		if i > 0 {
			valid = append(valid, ',')
		}
		valid = fmt.Appendf(valid, `{"kind":"game","ident":"g%07d","title":"Game %d","players":%d}`, i, i, i%5000)
	}
	valid = append(valid, `],"pagination":{"page":1,"hasNext":false}}`...)
	b.Run("refused", func(b *testing.B) {
		b.SetBytes(int64(len(bomb)))
		for b.Loop() {
			if _, err := decodePage(bomb, 1, decodeDashboardEntry); err == nil {
				b.Fatal("a nesting bomb decoded")
			}
		}
	})
	b.Run("baseline=a valid page of the same size", func(b *testing.B) {
		b.SetBytes(int64(len(valid)))
		for b.Loop() {
			if _, err := decodePage(valid, 1, decodeDashboardEntry); err != nil {
				b.Fatal(err)
			}
		}
	})
}
