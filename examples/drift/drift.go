package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// operation is a method on a path, with its named query parameters.
type operation struct {
	method string // upper case: GET
	path   string // as written: /api/servers/{id}
	params []string
	calls  []string // the SDK's calls, on the SDK's side
}

// key identifies an operation whatever its path parameters are named:
// /api/servers/{id} and /api/servers/{serverId} are the same operation.
func (o operation) key() string { return o.method + " " + pathParam.ReplaceAllString(o.path, "{}") }

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// httpMethods are the operations an OpenAPI path item may hold.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// parseOpenAPI reads the operations and their named query parameters from
// an OpenAPI 3 document: the parameters of the path item and of the
// operation, following local references ("#/components/parameters/page").
func parseOpenAPI(doc []byte) ([]operation, error) {
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]parameter `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	if d.Paths == nil {
		return nil, errors.New("no paths")
	}
	var ops []operation
	for _, path := range slices.Sorted(maps.Keys(d.Paths)) {
		pathOps, err := pathOperations(path, d.Paths[path], d.Components.Parameters)
		if err != nil {
			return nil, err
		}
		ops = append(ops, pathOps...)
	}
	return ops, nil
}

// pathOperations reads the operations of the path item of path, with
// the named query parameters of each, the item's own among them.
func pathOperations(path string, item map[string]json.RawMessage, components map[string]parameter) ([]operation, error) {
	var shared []parameter
	if raw, ok := item["parameters"]; ok {
		if err := json.Unmarshal(raw, &shared); err != nil {
			return nil, fmt.Errorf("%s: parameters: %w", path, err)
		}
	}
	var ops []operation
	for _, m := range httpMethods {
		raw, ok := item[m]
		if !ok {
			continue
		}
		var op struct {
			Parameters []parameter `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &op); err != nil {
			return nil, fmt.Errorf("%s %s: %w", m, path, err)
		}
		params, err := queryParams(append(slices.Clone(shared), op.Parameters...), components)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", m, path, err)
		}
		ops = append(ops, operation{method: strings.ToUpper(m), path: path, params: params})
	}
	return ops, nil
}

// queryParams returns the sorted names of the query parameters among raw,
// following local references into components.
func queryParams(raw []parameter, components map[string]parameter) ([]string, error) {
	var names []string
	for _, p := range raw {
		if p.Ref != "" {
			name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/")
			ref, found := components[name]
			if !ok || !found {
				return nil, fmt.Errorf("unresolved parameter reference %q", p.Ref)
			}
			p = ref
		}
		if p.In == "query" && !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// parameter is an OpenAPI parameter object, or a reference to one.
type parameter struct {
	Ref  string `json:"$ref"`
	Name string `json:"name"`
	In   string `json:"in"`
}

// covered is the SDK's side: every request it makes is a GET, the
// description itself (/openapi.json) among them.
func covered() []operation {
	var ops []operation
	for _, e := range manifest.Endpoints {
		ops = append(ops, operation{method: "GET", path: e.Path, params: e.Params, calls: e.Calls})
	}
	return ops
}

// row is one line of the report: an operation, or one of its parameters.
type row struct {
	name             string
	service, sdk     bool
	calls            []string
	parameter, drift bool
}

// report is the comparison, in the order it is printed.
type report struct {
	rows []row
}

// compare lines up the operations and parameters of both sides, sorted by
// path then method.
func compare(service, sdk []operation) report {
	bySDK := map[string]operation{}
	for _, o := range sdk {
		bySDK[o.key()] = o
	}
	byService := map[string]operation{}
	for _, o := range service {
		byService[o.key()] = o
	}
	keys := slices.Collect(maps.Keys(bySDK))
	for k := range byService {
		if _, ok := bySDK[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		ma, pa, _ := strings.Cut(a, " ")
		mb, pb, _ := strings.Cut(b, " ")
		return strings.Compare(pa+" "+ma, pb+" "+mb)
	})
	var r report
	for _, k := range keys {
		s, inService := byService[k]
		c, inSDK := bySDK[k]
		name := c.method + " " + c.path
		if inService {
			name = s.method + " " + s.path // the service's own names for its path parameters
		}
		r.rows = append(r.rows, row{name: name, service: inService, sdk: inSDK, calls: c.calls, drift: inService && !inSDK})
		params := slices.Clone(s.params)
		for _, p := range c.params {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
		slices.Sort(params)
		for _, p := range params {
			ps, pc := slices.Contains(s.params, p), slices.Contains(c.params, p)
			r.rows = append(r.rows, row{name: "  ?" + p, service: ps, sdk: pc, parameter: true, drift: ps && !pc})
		}
	}
	return r
}

// missing counts what the service publishes and the SDK does not cover.
func (r report) missing() int {
	n := 0
	for _, row := range r.rows {
		if row.drift {
			n++
		}
	}
	return n
}

// print writes the report as a table, then a summary line.
func (r report) print(w io.Writer) error {
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATION / QUERY PARAMETER\tSERVICE\tSDK\tSDK CALLS")
	mark := func(b bool) string {
		if b {
			return "yes"
		}
		return "-"
	}
	sdkOnly := 0
	for _, row := range r.rows {
		note := strings.Join(row.calls, ", ")
		switch {
		case row.drift:
			note = "<- not covered by the SDK"
		case !row.service:
			sdkOnly++
			note = strings.TrimPrefix(note+"  (not published by the service)", "  ")
		}
		// Names come from the service's document: untrusted text.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", gamedata.NewUntrusted(row.name).String(), mark(row.service), mark(row.sdk), note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for line := range strings.Lines(table.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	fmt.Fprintln(w)
	if n := r.missing(); n > 0 {
		fmt.Fprintf(w, "DRIFT: the service publishes %d operations or query parameters that the SDK does not cover.\n", n)
	} else {
		fmt.Fprintln(w, "No drift: the SDK covers every operation and query parameter the service publishes.")
	}
	if sdkOnly > 0 {
		fmt.Fprintf(w, "The SDK sends %d that the service does not publish.\n", sdkOnly)
	}
	return nil
}
