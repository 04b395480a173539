package grafana

import (
	"testing"
	"time"
)

// Expand gives what Grafana sends: the examples of Grafana's PostgreSQL
// macros and of the SQLite plugin's, for the range 2017-04-21
// 05:01:17 to 05:06:17 UTC.
func TestExpand(t *testing.T) {
	r := Range{From: time.Date(2017, 4, 21, 5, 1, 17, 0, time.UTC), To: time.Date(2017, 4, 21, 5, 6, 17, 0, time.UTC)}
	vars := map[string]string{"ident": "it's", "kind": "game"}
	for _, tc := range []struct {
		name, ds, in, want string
	}{
		{"pg timeFilter", PostgreSQL, "WHERE $__timeFilter(t)", "WHERE t BETWEEN '2017-04-21T05:01:17Z' AND '2017-04-21T05:06:17Z'"},
		{"pg unixEpochFilter", PostgreSQL, "WHERE $__unixEpochFilter(at)", "WHERE at >= 1492750877 AND at <= 1492751177"},
		{"pg unixEpochFrom/To", PostgreSQL, "$__unixEpochFrom() $__unixEpochTo()", "1492750877 1492751177"},
		{"pg timeFrom", PostgreSQL, "$__timeFrom()", "'2017-04-21T05:01:17Z'"},
		{"pg unixEpochGroupAlias", PostgreSQL, "$__unixEpochGroupAlias(at, '5m')", `floor((at)/300)*300 AS "time"`},
		{"pg single value", PostgreSQL, "ident = '$ident'", "ident = 'it''s'"},
		{"sqlstring", PostgreSQL, "ident = ${ident:sqlstring} AND kind = ${kind:sqlstring}", "ident = 'it''s' AND kind = 'game'"},
		{"sqlite from/to", SQLite, "at >= $__from / 1000 AND at < $__to / 1000", "at >= 1492750877000 / 1000 AND at < 1492751177000 / 1000"},
		{"sqlite timeFilter", SQLite, "$__timeFilter(at)", `CAST(CASE WHEN typeof(at) = 'integer' THEN at ELSE strftime("%s", at) END AS INTEGER) BETWEEN 1492750877 AND 1492751177`},
		{"sqlite group", SQLite, "$__unixEpochGroupSeconds(at, 3600)", "cast((at / 3600) as int) * 3600"},
		{"sqlite unknown macro", SQLite, "$__unixEpochFrom()", "$__unixEpochFrom()"},
		{"promql", Prometheus, `rate(x{kind="$kind"}[$__rate_interval])`, `rate(x{kind="game"}[2s])`},
		{"unknown variable", Prometheus, `x{a="$nope"}`, `x{a="$nope"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.in, tc.ds, r, vars)
			if err != nil || got != tc.want {
				t.Errorf("Expand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	if _, err := Expand("$__nope(x)", PostgreSQL, r, vars); err == nil {
		t.Error("an unknown PostgreSQL macro: no error")
	}
}
