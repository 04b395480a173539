package exporter

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
)

func TestConfigCheck(t *testing.T) {
	good := func() Config { return Config{Every: time.Minute, MaxSeries: 10} }
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string // "" for no error
	}{
		{"defaults", func(*Config) {}, ""},
		{"every 0", func(c *Config) { c.Every = 0 }, "--every 0s"},
		{"every negative", func(c *Config) { c.Every = -time.Second }, "--every -1s"},
		{"max series 0", func(c *Config) { c.MaxSeries = 0 }, "--max-series 0"},
		{"top negative", func(c *Config) { c.Top = -1 }, "--top -1"},
		{"empty kind", func(c *Config) { c.Kinds = []string{"game", ""} }, "--kind: empty"},
		{"dot kind", func(c *Config) { c.Kinds = []string{".."} }, `--kind "..": a dot segment`},
		{"dot ident", func(c *Config) { c.Packages = []gamedata.PackageRef{{Kind: "game", Ident: "."}} }, `--package ident "."`},
		{"empty server", func(c *Config) { c.Servers = []string{""} }, "--server: empty"},
		{"slash in an ident", func(c *Config) { c.Packages = []gamedata.PackageRef{{Kind: "game", Ident: "a/b"}} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := good()
			tc.change(&c)
			err := c.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestParsePackage(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want gamedata.PackageRef
		ok   bool
	}{
		{"game/neon-miner", gamedata.PackageRef{Kind: "game", Ident: "neon-miner"}, true},
		{"game/a/b", gamedata.PackageRef{Kind: "game", Ident: "a/b"}, true},
		{"game", gamedata.PackageRef{}, false},
		{"/x", gamedata.PackageRef{}, false},
		{"game/", gamedata.PackageRef{}, false},
	} {
		got, err := ParsePackage(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParsePackage(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestWalksDirectory: naming packages or servers alone polls only them;
// choosing a slice, or nothing at all, walks the directory.
func TestWalksDirectory(t *testing.T) {
	pkg := []gamedata.PackageRef{{Kind: "game", Ident: "x"}}
	for _, tc := range []struct {
		c    Config
		want bool
	}{
		{Config{}, true},
		{Config{Packages: pkg}, false},
		{Config{Servers: []string{"s"}}, false},
		{Config{Packages: pkg, Kinds: []string{"game"}}, true},
		{Config{Servers: []string{"s"}, Filters: []string{"online"}}, true},
		{Config{Packages: pkg, Top: 3}, true},
	} {
		if got := tc.c.walksDirectory(); got != tc.want {
			t.Errorf("%+v: walks the directory %v, want %v", tc.c, got, tc.want)
		}
	}
}

// TestSources: what the user named first, then one walk a kind, a kind
// given twice walked once, then the activity.
func TestSources(t *testing.T) {
	c, err := gamedata.NewClient("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Kinds: []string{"game", "mod", "game"}, Top: 3, Servers: []string{"s1"},
		Packages: []gamedata.PackageRef{{Kind: "game", Ident: "x"}}}
	var got []string
	for _, s := range sources(c, &cfg) {
		got = append(got, s.name)
	}
	want := []string{"package game/x", "server s1", "directory --kind game --top 3", "directory --kind mod --top 3", "activity"}
	if !slices.Equal(got, want) {
		t.Errorf("sources %q, want %q", got, want)
	}
}
