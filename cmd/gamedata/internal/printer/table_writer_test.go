package printer

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFitTable(t *testing.T) {
	t.Parallel()
	const (
		txt = textColumn
		id  = identityColumn
		num = numberColumn
	)
	all := func(n int) []bool { return slices.Repeat([]bool{true}, n) }
	for _, tt := range []struct {
		name      string
		natural   []int
		kinds     []columnKind
		primary   int
		width     int
		want      []int
		wantShown []bool
	}{
		{"no limit", []int{10, 20, 5}, []columnKind{txt, txt, num}, 3, 0, []int{10, 20, 5}, all(3)},
		{"fits", []int{10, 20, 5}, []columnKind{txt, txt, num}, 3, 100, []int{10, 20, 5}, all(3)},
		{"text cut, widest first", []int{10, 20, 5}, []columnKind{txt, txt, num}, 3, 30, []int{10, 11, 5}, all(3)},
		{"numbers never cut", []int{10, 20, 5}, []columnKind{num, txt, num}, 3, 10, []int{10, minColumn, 5}, all(3)},
		{"found columns left out before text is cut below readable", []int{7, 17, 40, 7, 10}, []columnKind{txt, id, txt, num, num}, 4, 60,
			[]int{7, 17, 23, 7, 10}, []bool{true, true, true, true, false}},
		{"identifiers cut last", []int{20, 20}, []columnKind{id, txt}, 2, 20, []int{12, minColumn}, all(2)},
	} {
		widths, shown := fitTable(tt.natural, tt.kinds, tt.primary, tt.width, nil)
		assert.Equal(t, tt.wantShown, shown, tt.name)
		for i, s := range shown {
			if s {
				assert.Equal(t, tt.want[i], widths[i], "%s: column %d", tt.name, i)
			}
		}
	}
}
