package store

import (
	"fmt"
	"math"
	"strconv"
	"sync"
)

// pgArray is a column of a batch's rows in PostgreSQL's text form of an
// array, {e1,e2,...}, which the server reads as the column's type[]:
// one string a column, which pgx sends as it is. Given as Go slices,
// pgx boxed every element into an interface and encoded it through
// reflection, and the garbage set the pace of the collector: at 100,000
// entries a run allocated 570 MB and spent a third of its CPU in
// collection (BENCHMARKS.md, issue 40).
type pgArray struct {
	buf []byte
	err error // the first value of a type the array cannot hold
}

// add appends v: text is quoted, so that no byte of it (a comma, a
// brace, a quote, the word NULL) is read as the array's syntax; a float
// is the shortest decimal that reads back as the same float64.
func (a *pgArray) add(v any) {
	if len(a.buf) == 0 {
		a.start()
	} else {
		a.buf = append(a.buf, ',')
	}
	switch v := v.(type) {
	case nil:
		a.null()
	case string:
		a.quote(v)
	case *string:
		if v == nil {
			a.null()
		} else {
			a.quote(*v)
		}
	case float64:
		a.float(v)
	case *float64:
		if v == nil {
			a.null()
		} else {
			a.float(*v)
		}
	case int:
		a.buf = strconv.AppendInt(a.buf, int64(v), 10)
	case int64:
		a.buf = strconv.AppendInt(a.buf, v, 10)
	default:
		a.null()
		if a.err == nil {
			a.err = fmt.Errorf("store: no PostgreSQL array element for a %T", v)
		}
	}
}

// arrayBufs are pgArray's buffers between batches: each SaveEntries
// call gathers its rows in batches of its own, and growing their
// buffers anew was a seventh of a run's garbage.
var arrayBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled is the largest buffer arrayBufs keeps: a rollup's batch of
// 4,096 rows, not the rare larger one.
const maxPooled = 1 << 20

// start begins the array, in a buffer of arrayBufs.
func (a *pgArray) start() {
	if a.buf == nil {
		a.buf = (*arrayBufs.Get().(*[]byte))[:0]
	}
	a.buf = append(a.buf, '{')
}

func (a *pgArray) null() { a.buf = append(a.buf, "NULL"...) }

// quote appends s between double quotes, a backslash before each quote
// and backslash in it: inside quotes the server reads every other byte
// as it is.
func (a *pgArray) quote(s string) {
	a.buf = append(a.buf, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			a.buf = append(a.buf, '\\')
		}
		a.buf = append(a.buf, s[i])
	}
	a.buf = append(a.buf, '"')
}

// float appends f as float8's input reads it: Go's +Inf and -Inf are
// spelled Infinity and -Infinity there.
func (a *pgArray) float(f float64) {
	switch {
	case math.IsInf(f, 1):
		a.buf = append(a.buf, "Infinity"...)
	case math.IsInf(f, -1):
		a.buf = append(a.buf, "-Infinity"...)
	default:
		a.buf = strconv.AppendFloat(a.buf, f, 'g', -1, 64)
	}
}

// text is the array, and empties a for the next rows.
func (a *pgArray) text() (string, error) {
	if len(a.buf) == 0 {
		a.start()
	}
	s, err := string(append(a.buf, '}')), a.err
	if buf := a.buf[:0]; cap(buf) <= maxPooled {
		arrayBufs.Put(&buf)
	}
	a.buf, a.err = nil, nil
	return s, err
}
