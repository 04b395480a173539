// Package grafana reads the Grafana dashboards shipped in deploy/grafana
// as Grafana would: their panels, their data sources and their queries,
// with template variables and each data source's macros expanded as
// Grafana expands them before a query reaches the database or
// Prometheus. No Grafana server runs in the tests; this package lets
// them run every panel's query against a real database and a real
// Prometheus instead.
package grafana

import (
	"encoding/json"
	"fmt"
	"os"
)

// The data source types (plugin ids) the dashboards use.
const (
	SQLite     = "frser-sqlite-datasource"
	PostgreSQL = "grafana-postgresql-datasource"
	Prometheus = "prometheus"
)

// Dashboard is the part of a dashboard's JSON model the tests read.
type Dashboard struct {
	// Inputs are what Grafana's "Import dashboard" asks for.
	Inputs     []Input `json:"__inputs"`
	UID        string  `json:"uid"`
	Title      string  `json:"title"`
	Panels     []Panel `json:"panels"`
	Templating struct {
		List []Variable `json:"list"`
	} `json:"templating"`
}

// Input is a data source that Grafana's "Import dashboard" asks for: it
// replaces ${Name} in the dashboard with the uid of the one chosen.
type Input struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	PluginID string `json:"pluginId"`
}

// DatasourceVariable is the type of a variable whose values are the data
// sources of one type, the one its query names.
const DatasourceVariable = "datasource"

// QueryVariables are the dashboard's variables whose values a query to
// the data source lists, in their order.
func (d *Dashboard) QueryVariables() []Variable {
	var out []Variable
	for _, v := range d.Templating.List {
		if v.Type != DatasourceVariable {
			out = append(out, v)
		}
	}
	return out
}

// Panel is one panel: its data source, its queries and the unit of its
// values.
type Panel struct {
	ID          int            `json:"id"`
	Title       string         `json:"title"`
	Type        string         `json:"type"`
	Datasource  *DatasourceRef `json:"datasource"`
	Targets     []Target       `json:"targets"`
	FieldConfig struct {
		Defaults struct {
			Unit string `json:"unit"`
		} `json:"defaults"`
	} `json:"fieldConfig"`
}

// DatasourceRef names a data source by its type and uid.
type DatasourceRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// Target is one query of a panel, in the fields each data source keeps
// it: rawSql (PostgreSQL), queryText (SQLite), expr (Prometheus).
type Target struct {
	RefID       string         `json:"refId"`
	Datasource  *DatasourceRef `json:"datasource"`
	RawSQL      string         `json:"rawSql"`
	QueryText   string         `json:"queryText"`
	Expr        string         `json:"expr"`
	Format      string         `json:"format"`
	QueryType   string         `json:"queryType"`
	TimeColumns []string       `json:"timeColumns"`
	Instant     bool           `json:"instant"`
}

// Query is the target's query text, whichever data source it is for.
func (t Target) Query() string {
	switch {
	case t.RawSQL != "":
		return t.RawSQL
	case t.QueryText != "":
		return t.QueryText
	}
	return t.Expr
}

// Variable is a template variable.
type Variable struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Datasource *DatasourceRef  `json:"datasource"`
	RawQuery   json.RawMessage `json:"query"`
	// Current is the value the dashboard opens with.
	Current struct {
		Value string `json:"value"`
	} `json:"current"`
}

// Query is the variable's query: a string, or the query member of the
// object newer Grafana versions write.
func (v Variable) Query() string {
	var s string
	if json.Unmarshal(v.RawQuery, &s) == nil {
		return s
	}
	var o struct {
		Query string `json:"query"`
	}
	json.Unmarshal(v.RawQuery, &o) // neither a string nor an object: no query
	return o.Query
}

// Load reads the dashboard in the file path.
func Load(path string) (*Dashboard, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d Dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}
