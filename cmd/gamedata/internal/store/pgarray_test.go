package store

import (
	"math"
	"strconv"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every value a batch writes reaches PostgreSQL as itself through an
// array literal, read back by the server's own parser: text made of the
// literal's syntax (quotes, backslashes, braces, commas, the word NULL,
// spaces), nulls, floats to the bit (the sign of zero, the extremes,
// the infinities), and integers at their limits.
func TestPGArrayReadsBackAsWritten(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.NewDatabase(t))
	text, none := "pointed", (*string)(nil)
	f, nf, tenth := 2.5, (*float64)(nil), 0.1
	for _, c := range []struct {
		typ  string
		in   []any
		want []string
	}{
		{"text", []any{"", "NULL", "null", `a"b`, `back\slash\`, `\"`, "{,}", " spaced ", "é ☃", "line\nbreak", nil, &text, none},
			[]string{`""`, `"NULL"`, `"null"`, `"a\"b"`, `"back\\slash\\"`, `"\\\""`, `"{,}"`, `" spaced "`, `"é ☃"`, `"line\nbreak"`, "null", `"pointed"`, "null"}},
		{"float8", []any{0.0, math.Copysign(0, -1), tenth + 0.2, 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64, -123456.789012345678, math.Inf(1), math.Inf(-1), math.NaN(), nil, &f, nf},
			[]string{"0", "-0", "0.30000000000000004", "1e+21", "1e-07", "1.7976931348623157e+308", "5e-324", "-123456.78901234567", "+Inf", "-Inf", "NaN", "null", "2.5", "null"}},
		{"int8", []any{int64(math.MinInt64), int64(math.MaxInt64), 0, -1, int64(1767225600)},
			[]string{"-9223372036854775808", "9223372036854775807", "0", "-1", "1767225600"}},
		{"int4", []any{b2i(true), b2i(false), math.MaxInt32, math.MinInt32},
			[]string{"1", "0", "2147483647", "-2147483648"}},
		{"text", nil, nil},
	} {
		var a pgArray
		for _, v := range c.in {
			a.add(v)
		}
		literal, err := a.text()
		require.NoError(t, err)
		_, rows := rowsOf(t, db, `SELECT x FROM unnest(CAST($1 AS `+c.typ+`[])) WITH ORDINALITY AS u (x, n) ORDER BY n`, literal)
		var got []string
		for _, r := range rows {
			switch v := r[0].(type) {
			case nil:
				got = append(got, "null")
			case string:
				got = append(got, strconv.Quote(v))
			case float64:
				got = append(got, strconv.FormatFloat(v, 'g', -1, 64))
			default:
				got = append(got, strconv.FormatInt(v.(int64), 10))
			}
		}
		assert.Equal(t, c.want, got, "%s from %s", c.typ, literal)
	}
}

// A value of a type the array cannot hold is an error, never a guess,
// and the next array starts afresh.
func TestPGArrayRefusesOtherTypes(t *testing.T) {
	t.Parallel()
	var a pgArray
	a.add(1.5)
	a.add(struct{}{})
	_, err := a.text()
	assert.ErrorContains(t, err, "struct {}")
	a.add("x")
	literal, err := a.text()
	require.NoError(t, err)
	assert.Equal(t, `{"x"}`, literal)
}
