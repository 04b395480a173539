package grafana

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deployDir holds the dashboards and provisioning files that ship.
var deployDir = filepath.Join("..", "..", "..", "..", "deploy", "grafana")

// TestDashboardsAreComplete loads every shipped dashboard, as Grafana
// would, and checks that each panel names a data source the provisioning
// file defines, has a query in every target and a unit for its values.
func TestDashboardsAreComplete(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(deployDir, "dashboards", "*.json"))
	if err != nil || len(files) < 3 {
		t.Fatalf("dashboards: %v %v", files, err)
	}
	provisioning, err := os.ReadFile(filepath.Join(deployDir, "provisioning", "datasources", "gamedata.yml"))
	if err != nil {
		t.Fatal(err)
	}
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
				checkPanel(t, p, string(provisioning))
			}
			for _, v := range d.Templating.List {
				if v.Query() == "" || v.Datasource == nil {
					t.Errorf("variable %q: no query or data source", v.Name)
				}
			}
		})
	}
}

// checkPanel checks that p names a data source that provisioning
// defines, has a query in every target, each on the panel's data source,
// and a unit for its values.
func checkPanel(t *testing.T, p Panel, provisioning string) {
	t.Helper()
	if p.Datasource == nil || p.Datasource.Type == "" || p.Datasource.UID == "" {
		t.Errorf("panel %q: no data source", p.Title)
	} else if !strings.Contains(provisioning, "uid: "+p.Datasource.UID+"\n") {
		t.Errorf("panel %q: data source %q is not provisioned", p.Title, p.Datasource.UID)
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
