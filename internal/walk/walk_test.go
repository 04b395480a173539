package walk

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCatch(t *testing.T) {
	t.Parallel()
	assert.Nil(t, Catch(func() {}))
	boom := errors.New("boom")
	p := Catch(func() { panic(boom) })
	if assert.NotNil(t, p) {
		assert.Equal(t, boom, p.Value)
		assert.Contains(t, string(p.Stack), "walk_test.go", "the stack where it began")
	}
}

// Ahead yields the pages in order, read ahead or not, stops reading after
// the page that panicked, and carries a panic of its goroutine to Next; a
// fetch Next makes itself panics in the caller's goroutine as it is.
func TestAhead(t *testing.T) {
	t.Parallel()
	for _, ahead := range []int{0, 1, 3} {
		var fetched atomic.Int32
		a := NewAhead(context.Background(), 1, ahead, func(_ context.Context, page int) int {
			fetched.Add(1)
			if page == 4 {
				panic("page 4")
			}
			return page
		}, func(page int) bool { return page == 5 })
		for want := 1; want <= 3; want++ {
			got, p := a.Next()
			assert.Nil(t, p)
			assert.Equal(t, want, got, "ahead %d", ahead)
		}
		var p *Panic
		if ahead == 0 {
			p = Catch(func() { a.Next() })
		} else {
			_, p = a.Next()
		}
		if assert.NotNil(t, p, "ahead %d", ahead) {
			assert.Equal(t, "page 4", p.Value)
		}
		a.Close()
		assert.LessOrEqual(t, fetched.Load(), int32(4), "ahead %d: nothing read past the page that panicked", ahead)
	}
}

func TestSeen(t *testing.T) {
	t.Parallel()
	s := NewSeen()
	assert.True(t, s.Add("game", "/", "a"))
	assert.False(t, s.Add("game/a"), "the parts concatenated are the identity")
	assert.True(t, s.Add("game", "/", "b"))
}

func TestBound(t *testing.T) {
	t.Parallel()
	none := Totals{Pages: -1, Entries: -1}
	for _, tt := range []struct {
		name   string
		pages  []int // entries on each page
		totals Totals
		says   string // of the last page; "" when none is refused
	}{
		{"within", []int{10, 10, 10}, none, ""},
		{"a page larger than a page may be", []int{10, 11}, none, "holds 11 entries"},
		{"past the bound", []int{10, 10, 10, 10}, none, "past WalkOptions.MaxItems"},
		{"empty pages count", []int{0, 0, 0, 0, 0, 0}, Totals{Pages: -1, Entries: -1}, ""},
		{"a page past totalPages, with slack", []int{10, 10, 1}, Totals{Pages: 1, Entries: -1}, "pages the service says"},
		{"past total, with a page of slack", []int{10, 10, 1}, Totals{Pages: -1, Entries: 10}, "entries the service says"},
	} {
		b := NewBound(10, 30)
		var err error
		for i, n := range tt.pages {
			if err = b.Check(i+1, n, tt.totals); err != nil {
				break
			}
		}
		if tt.says == "" {
			assert.NoError(t, err, tt.name)
		} else if assert.Error(t, err, tt.name) {
			assert.True(t, strings.Contains(err.Error(), tt.says), "%s: %v", tt.name, err)
		}
	}
}
