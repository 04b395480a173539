package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envRead finds where the code reads a variable of the environment by
// name: os.Getenv, os.LookupEnv and the factory's getenv. A literal name
// is the variable's; another argument is read by a name the test cannot
// see, which dynamicReads must list.
var envRead = regexp.MustCompile(`\b(?:Getenv|LookupEnv|getenv)\(([^)]*)\)`)

// dynamicReads are the variables the files that read one by a name held
// in a variable read.
var dynamicReads = map[string][]string{
	"cmd/gamedata/internal/dsn/dsn.go": {"PGPASSWORD", "PGSSLPASSWORD"},
}

// readsBy are the variables a package under the command reads when the
// code uses it, by what the code says that uses it.
var readsBy = map[string][]string{
	"os.UserCacheDir":       {"XDG_CACHE_HOME", "HOME"},
	"os.UserHomeDir":        {"HOME"},
	"http.DefaultTransport": {"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR"},
	`"modernc.org/sqlite"`:  {"SQLITE_TMPDIR", "TMPDIR"},
	"pgconn.ParseConfig":    {"HOME"}, // ~/.pgpass and ~/.pg_service.conf; pgx's own variables are read from its source
	"debug.SetMemoryLimit":  {"GOMEMLIMIT"},
}

// `gamedata help environment` names every variable of the environment the
// command's code reads (the command, the library and its twin), those
// its packages read as the code uses them, and every one pgx reads for
// a PostgreSQL --db.
func TestEnvironmentTopicListsWhatTheCodeReads(t *testing.T) {
	t.Parallel()
	code, topic, errOut := cli(t, "", "help", "environment")
	require.Equal(t, 0, code, errOut)
	code, help, errOut := cli(t, "", "help")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, help, "Additional help topics:\n  gamedata environment", "gamedata help lists the topic")

	root := filepath.Join("..", "..")
	want := map[string]string{} // a variable, and where it is read
	for _, dir := range []string{".", "internal", "gamedatatest", filepath.Join("cmd", "gamedata")} {
		for path, src := range goSources(t, filepath.Join(root, dir), dir == ".") {
			rel, err := filepath.Rel(root, path)
			require.NoError(t, err)
			rel = filepath.ToSlash(rel)
			for _, m := range envRead.FindAllStringSubmatch(src, -1) {
				if name, ok := strings.CutPrefix(m[1], `"`); ok {
					want[strings.TrimSuffix(name, `"`)] = rel
					continue
				}
				names, ok := dynamicReads[rel]
				if assert.True(t, ok, "%s reads the variable named by %s: list the names it reads in dynamicReads", rel, m[1]) {
					for _, name := range names {
						want[name] = rel
					}
				}
			}
			for use, names := range readsBy {
				if strings.Contains(src, use) {
					for _, name := range names {
						want[name] = rel + " (" + use + ")"
					}
				}
			}
			if strings.Contains(src, "pgconn.ParseConfig") {
				for _, name := range pgxVariables(t) {
					want[name] = rel + " (pgx)"
				}
			}
		}
	}
	for _, name := range []string{"GAMEDATA_BASE_URL", "GAMEDATA_DEBUG", "PGPASSWORD", "PGPASSFILE", "GOMEMLIMIT", "XDG_CACHE_HOME", "NO_COLOR"} {
		assert.Contains(t, topic, name, "the topic names %s", name)
		_, found := want[name]
		assert.True(t, found || name == "NO_COLOR", "the code reads %s: the test finds what the code reads", name)
	}
	for name, where := range want {
		assert.Regexp(t, `\b`+regexp.QuoteMeta(name)+`\b`, topic, "%s reads %s: say it in newCmdEnvironment", where, name)
	}
}

// goSources are the Go files under dir but tests, by path, and those of
// the directories below it unless top (the library's root, beside the
// modules it holds), never testdata's or another module's.
func goSources(t *testing.T, dir string, top bool) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && (top || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() && path != dir:
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		files[path] = string(b)
		return err
	})
	require.NoError(t, err)
	return files
}

// pgxVariables are the variables pgx reads for a connection, from the
// source of the version the command is built with.
func pgxVariables(t *testing.T) []string {
	t.Helper()
	const module = "github.com/jackc/pgx/v5"
	info, ok := debug.ReadBuildInfo()
	require.True(t, ok)
	i := slices.IndexFunc(info.Deps, func(m *debug.Module) bool { return m.Path == module })
	require.GreaterOrEqual(t, i, 0, "the command is built with %s", module)
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		cache = filepath.Join(filepath.SplitList(build.Default.GOPATH)[0], "pkg", "mod")
	}
	src, err := os.ReadFile(filepath.Join(cache, filepath.FromSlash(module)+"@"+info.Deps[i].Version, "pgconn", "config.go"))
	require.NoError(t, err, "pgx's source, where its variables are named")
	var names []string
	for _, m := range regexp.MustCompile(`"(PG[A-Z_]+)":`).FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	require.NotEmpty(t, names, "pgx names its variables in pgconn/config.go")
	return names
}
