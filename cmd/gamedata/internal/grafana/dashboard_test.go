package grafana

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deployDir holds the dashboards and provisioning files that ship.
var deployDir = filepath.Join("..", "..", "..", "..", "deploy", "grafana")

// TestDashboardsAreComplete loads every shipped dashboard, as Grafana
// would, and checks that each panel names a data source of a type the
// provisioning file defines, has a query in every target and a unit for its values.
func TestDashboardsAreComplete(t *testing.T) {
	files, provisioning := shipped(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if d.UID == "" || d.Title == "" || len(d.Panels) == 0 {
				t.Fatalf("uid %q, title %q, %d panels", d.UID, d.Title, len(d.Panels))
			}
			for _, p := range d.Panels {
				checkPanel(t, p, provisioning)
			}
			for _, v := range d.QueryVariables() {
				if v.Query() == "" || v.Datasource == nil {
					t.Errorf("variable %q: no query or data source", v.Name)
				}
			}
		})
	}
}

// shipped returns the paths of the shipped dashboards and the data
// sources' provisioning file.
func shipped(t *testing.T) (dashboards []string, provisioning string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(deployDir, "dashboards", "*.json"))
	if err != nil || len(files) < 3 {
		t.Fatalf("dashboards: %v %v", files, err)
	}
	b, err := os.ReadFile(filepath.Join(deployDir, "provisioning", "datasources", "gamedata.yml"))
	if err != nil {
		t.Fatal(err)
	}
	return files, string(b)
}

// checkPanel checks that p names a data source of a type that
// provisioning defines, has a query in every target, each on the panel's
// data source, and a unit for its values.
func checkPanel(t *testing.T, p Panel, provisioning string) {
	t.Helper()
	if p.Datasource == nil || p.Datasource.Type == "" || p.Datasource.UID == "" {
		t.Errorf("panel %q: no data source", p.Title)
	} else if !strings.Contains(provisioning, "type: "+p.Datasource.Type+"\n") {
		t.Errorf("panel %q: no data source of type %q is provisioned", p.Title, p.Datasource.Type)
	}
	if len(p.Targets) == 0 {
		t.Errorf("panel %q: no query", p.Title)
	}
	for _, q := range p.Targets {
		if strings.TrimSpace(q.Query()) == "" {
			t.Errorf("panel %q, target %s: empty query", p.Title, q.RefID)
		}
		if q.Datasource != nil && p.Datasource != nil && *q.Datasource != *p.Datasource {
			t.Errorf("panel %q, target %s: data source %v, the panel's is %v", p.Title, q.RefID, *q.Datasource, *p.Datasource)
		}
	}
	if p.FieldConfig.Defaults.Unit == "" {
		t.Errorf("panel %q: no unit", p.Title)
	}
}

// TestDashboardsImportAnywhere checks that every shipped dashboard names
// its data source through one data source variable, so that it imports
// into any Grafana and still works provisioned as it is:
//   - every data source the JSON names (a panel's, a target's, a
//     variable's, wherever it nests) is the variable, ${datasource},
//     never a fixed uid;
//   - the variable's query is the data source type they all share, and
//     __inputs names each type used, so "Import dashboard" asks for one;
//   - the variable's current value is that input, ${DS_…}, which the
//     import replaces with the uid chosen; provisioned, nothing replaces
//     it, no data source has that uid, and Grafana opens the dashboard
//     on a data source of the variable's type, which the provisioning
//     file defines. Nothing else says ${DS_…}: a panel that did would be
//     fixed to one uid once imported and name none when provisioned.
func TestDashboardsImportAnywhere(t *testing.T) {
	files, provisioning := shipped(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			v := datasourceVariable(t, d)
			var model any
			if err := json.Unmarshal(raw, &model); err != nil {
				t.Fatal(err)
			}
			used := map[string]bool{}
			for where, ref := range datasourceRefs(model, "") {
				used[ref.Type] = true
				if ref.UID != "${datasource}" || ref.Type != v.Query() {
					t.Errorf("%s: data source %+v, want {Type:%s UID:${datasource}}", where, ref, v.Query())
				}
			}
			inputs := map[string]bool{}
			for _, in := range d.Inputs {
				inputs[in.PluginID] = in.Type == "datasource"
				if v.Current.Value == "${"+in.Name+"}" && in.PluginID != v.Query() {
					t.Errorf("the variable's current value is input %s, of type %s; its query is %s", in.Name, in.PluginID, v.Query())
				}
			}
			for typ := range used {
				if !inputs[typ] {
					t.Errorf("__inputs %+v: no data source input of type %s, which the panels use", d.Inputs, typ)
				}
			}
			if !slices.ContainsFunc(d.Inputs, func(in Input) bool { return v.Current.Value == "${"+in.Name+"}" }) {
				t.Errorf("the variable's current value %q is not an input, ${DS_…}: a fixed uid, or none to replace", v.Current.Value)
			}
			if n := strings.Count(string(raw), "${DS_"); n != 2 { // the current value's text and value
				t.Errorf("${DS_… appears %d times; want it only as the variable's current value", n)
			}
			if !strings.Contains(provisioning, "type: "+v.Query()+"\n") {
				t.Errorf("the provisioning file defines no data source of type %s", v.Query())
			}
		})
	}
}

// datasourceVariable is d's one variable of type datasource, named
// datasource.
func datasourceVariable(t *testing.T, d *Dashboard) Variable {
	t.Helper()
	var found []Variable
	for _, v := range d.Templating.List {
		if v.Type == DatasourceVariable {
			found = append(found, v)
		}
	}
	if len(found) != 1 || found[0].Name != "datasource" || found[0].Query() == "" {
		t.Fatalf("data source variables %+v; want one, named datasource, whose query is a data source type", found)
	}
	return found[0]
}

// datasourceRefs returns every "datasource" object in the JSON model m,
// wherever it nests, keyed by its path.
func datasourceRefs(m any, path string) map[string]DatasourceRef {
	out := map[string]DatasourceRef{}
	switch m := m.(type) {
	case map[string]any:
		for k, v := range m {
			if k == "datasource" {
				out[path+".datasource"] = refOf(v)
			}
			maps.Copy(out, datasourceRefs(v, path+"."+k))
		}
	case []any:
		for i, v := range m {
			maps.Copy(out, datasourceRefs(v, fmt.Sprintf("%s[%d]", path, i)))
		}
	}
	return out
}

// refOf reads a "datasource" value: an object with a type and a uid, or
// the older form, a bare uid or name.
func refOf(v any) DatasourceRef {
	if name, ok := v.(string); ok {
		return DatasourceRef{UID: name}
	}
	ref, _ := v.(map[string]any)
	typ, _ := ref["type"].(string)
	uid, _ := ref["uid"].(string)
	return DatasourceRef{Type: typ, UID: uid}
}
