package grafana

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Range is a dashboard's time range.
type Range struct{ From, To time.Time }

// Expand returns query as Grafana sends it to a data source of type ds
// for the time range r and the template variables vars: first the
// variables (Grafana's own, such as $__from, and the dashboard's), then
// the data source's macros. A macro the data source does not know is an
// error, as it is in Grafana for PostgreSQL; the SQLite plugin leaves it
// as written, and so does Expand.
func Expand(query, ds string, r Range, vars map[string]string) (string, error) {
	q := expandVariables(query, ds, r, vars)
	switch ds {
	case PostgreSQL:
		return expandMacros(q, func(name string, args []string) (string, error) { return postgresMacro(r, name, args) })
	case SQLite:
		return expandMacros(q, func(name string, args []string) (string, error) { return sqliteMacro(r, name, args) })
	}
	return q, nil
}

// variableRE is Grafana's syntax of a variable: $name, [[name]] or
// ${name} and ${name:format}.
var variableRE = regexp.MustCompile(`\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\$\{(\w+)(?::([^}]+))?\}`)

// expandVariables replaces the variables Grafana knows and leaves the
// rest (a macro such as $__unixEpochFrom) for the data source.
func expandVariables(query, ds string, r Range, vars map[string]string) string {
	builtin := map[string]string{
		"__from": strconv.FormatInt(r.From.UnixMilli(), 10),
		"__to":   strconv.FormatInt(r.To.UnixMilli(), 10),
		// Grafana computes these from the panel's width and the scrape
		// interval; the tests' Prometheus scrapes every 250 ms.
		"__interval":      "1s",
		"__rate_interval": "2s",
		"__range_s":       strconv.FormatInt(int64(r.To.Sub(r.From)/time.Second), 10),
	}
	return variableRE.ReplaceAllStringFunc(query, func(m string) string {
		g := variableRE.FindStringSubmatch(m)
		name, format := g[1]+g[2]+g[4], g[3]+g[5]
		if v, ok := builtin[name]; ok {
			return v
		}
		v, ok := vars[name]
		if !ok {
			return m
		}
		switch {
		case format == "sqlstring":
			return "'" + strings.ReplaceAll(v, "'", "''") + "'"
		case format == "" && ds == PostgreSQL:
			// Grafana's SQL data sources double a quote in a single value.
			return strings.ReplaceAll(v, "'", "''")
		}
		return v
	})
}

// macroRE is a macro call: $__name(args), as Grafana's SQL engines find
// them.
var macroRE = regexp.MustCompile(`\$(__[_a-zA-Z0-9]+)\(([^)]*)\)`)

func expandMacros(query string, eval func(name string, args []string) (string, error)) (string, error) {
	var failed error
	out := macroRE.ReplaceAllStringFunc(query, func(m string) string {
		g := macroRE.FindStringSubmatch(m)
		var args []string
		if strings.TrimSpace(g[2]) != "" {
			for _, a := range strings.Split(g[2], ",") {
				args = append(args, strings.TrimSpace(a))
			}
		}
		s, err := eval(g[1], args)
		if err != nil && failed == nil {
			failed = err
		}
		if s == "" && err == nil {
			return m
		}
		return s
	})
	return out, failed
}

// postgresMacro is a macro of Grafana's PostgreSQL data source
// (pkg/tsdb/grafana-postgresql-datasource/macros.go), without
// TimescaleDB's time_bucket.
func postgresMacro(r Range, name string, args []string) (string, error) {
	from, to := r.From.UTC(), r.To.UTC()
	need := func(n int) error {
		if len(args) < n {
			return fmt.Errorf("macro %s needs %d argument(s)", name, n)
		}
		return nil
	}
	switch name {
	case "__time":
		return args0(args, name, func(c string) string { return c + ` AS "time"` })
	case "__timeEpoch":
		return args0(args, name, func(c string) string { return `extract(epoch from ` + c + `) as "time"` })
	case "__timeFilter":
		return args0(args, name, func(c string) string {
			return fmt.Sprintf("%s BETWEEN '%s' AND '%s'", c, from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano))
		})
	case "__timeFrom":
		return "'" + from.Format(time.RFC3339Nano) + "'", nil
	case "__timeTo":
		return "'" + to.Format(time.RFC3339Nano) + "'", nil
	case "__unixEpochFilter":
		return args0(args, name, func(c string) string { return fmt.Sprintf("%s >= %d AND %s <= %d", c, from.Unix(), c, to.Unix()) })
	case "__unixEpochFrom":
		return strconv.FormatInt(from.Unix(), 10), nil
	case "__unixEpochTo":
		return strconv.FormatInt(to.Unix(), 10), nil
	case "__unixEpochGroup", "__unixEpochGroupAlias":
		if err := need(2); err != nil {
			return "", err
		}
		d, err := time.ParseDuration(strings.Trim(args[1], `'`))
		if err != nil {
			return "", fmt.Errorf("macro %s: interval %s: %w", name, args[1], err)
		}
		s := fmt.Sprintf("floor((%s)/%v)*%v", args[0], d.Seconds(), d.Seconds())
		if name == "__unixEpochGroupAlias" {
			s += ` AS "time"`
		}
		return s, nil
	}
	return "", fmt.Errorf("unknown macro %q", name)
}

// sqliteMacro is a macro of the SQLite data source
// (frser-sqlite-datasource, pkg/plugin/macros.go); "" leaves any other
// as written.
func sqliteMacro(r Range, name string, args []string) (string, error) {
	switch name {
	case "__timeFilter":
		return args0(args, name, func(c string) string {
			return fmt.Sprintf(`CAST(CASE WHEN typeof(%[1]s) = 'integer' THEN %[1]s ELSE strftime("%%s", %[1]s) END AS INTEGER) BETWEEN %[2]d AND %[3]d`,
				c, r.From.Unix(), r.To.Unix())
		})
	case "__unixEpochGroupSeconds":
		if len(args) < 2 {
			return "", fmt.Errorf("macro %s needs a column and an interval in seconds", name)
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return "", fmt.Errorf("macro %s: interval %q is not a number of seconds", name, args[1])
		}
		return fmt.Sprintf("cast((%s / %d) as int) * %d", args[0], n, n), nil
	}
	return "", nil
}

// args0 applies f to a macro's first argument, which it needs.
func args0(args []string, name string, f func(string) string) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("missing time column argument for macro %s", name)
	}
	return f(args[0]), nil
}
