package exporter

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rulesDir holds the Prometheus rules that ship with the exporter.
var rulesDir = filepath.Join("..", "..", "..", "..", "deploy", "prometheus")

// TestPrometheusRules runs the real promtool over the shipped rules:
// check rules lints them, test rules runs their unit tests, in which
// every alert has a case that fires and one that does not.
func TestPrometheusRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed; apt-get install -y prometheus (Debian's package ships it) to run this test")
	}
	for _, args := range [][]string{
		{"check", "rules", "gamedata-rules.yml"},
		{"test", "rules", "gamedata-rules.test.yml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = rulesDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestRulesNameExportedMetrics keeps the rules in step with the
// exporter: every gamedata_ metric they read is one it exports, so a
// renamed family fails here rather than in an alert that never fires.
func TestRulesNameExportedMetrics(t *testing.T) {
	rules, err := os.ReadFile(filepath.Join(rulesDir, "gamedata-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fixedFamilies {
		names = append(names, f.name)
	}
	used := regexp.MustCompile(`\bgamedata_[a-z_]+`).FindAllString(string(rules), -1)
	if len(used) == 0 {
		t.Fatal("the rules name no gamedata_ metric")
	}
	for _, name := range used {
		if !slices.Contains(names, name) {
			t.Errorf("the rules read %s, which the exporter does not export", name)
		}
	}
}
