package gamedata_test

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestModulesUseOnlyEachOthersPublicAPI holds the boundary between the
// repository's modules (the library, cmd/gamedata, otel, examples/otel,
// peers, conformance): no package of one imports a package under another
// module's internal/. The go command allows it, since the modules' paths
// nest, but the modules are versioned apart: the command pins a release of
// the library, and a change to an internal function would break a
// released pair. What a module needs of another is the other's public API.
//
// Test files are held to it too: a module's tests run against the released
// library as its users' do, and an internal package is not part of what
// was released.
func TestModulesUseOnlyEachOthersPublicAPI(t *testing.T) {
	t.Parallel()
	for _, v := range foreignInternalImports(t, ".") {
		t.Error(v)
	}
}

// TestForeignInternalImportsCatches checks the checker on a repository of
// two modules: it reports a package of the nested module that imports the
// outer one's internal/, a test file included, and not a module's use of
// its own internal/.
func TestForeignInternalImportsCatches(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                  "module example.com/lib\n",
		"internal/x/x.go":         "package x\n",
		"examples/ex/main.go":     "package main\n\nimport _ \"example.com/lib/internal/x\"\n",
		"cmd/go.mod":              "module example.com/lib/cmd\n",
		"cmd/internal/y/y.go":     "package y\n",
		"cmd/main.go":             "package main\n\nimport (\n\t_ \"example.com/lib\"\n\t_ \"example.com/lib/cmd/internal/y\"\n\t_ \"example.com/lib/internal/x\"\n)\n",
		"cmd/main_test.go":        "package main\n\nimport _ \"example.com/lib/internal/x\"\n",
		"cmd/testdata/skip/s.go":  "package s\n\nimport _ \"example.com/lib/internal/x\"\n",
		"cmd/internal/y/y_two.go": "package y\n\nimport _ \"example.com/lib/internal\"\n",
	})
	got := foreignInternalImports(t, root)
	want := []string{
		fmt.Sprintf("%s imports %q, internal to module example.com/lib: use that module's public API, or give module example.com/lib/cmd code of its own",
			filepath.Join(root, "cmd", "internal", "y", "y_two.go"), "example.com/lib/internal"),
		fmt.Sprintf("%s imports %q, internal to module example.com/lib: use that module's public API, or give module example.com/lib/cmd code of its own",
			filepath.Join(root, "cmd", "main.go"), "example.com/lib/internal/x"),
		fmt.Sprintf("%s imports %q, internal to module example.com/lib: use that module's public API, or give module example.com/lib/cmd code of its own",
			filepath.Join(root, "cmd", "main_test.go"), "example.com/lib/internal/x"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("foreignInternalImports =\n%q\nwant\n%q", got, want)
	}
}

// foreignInternalImports returns, sorted, a message for each import in a
// Go file under root, tests included, of a package internal to a module of the
// repository other than the file's own. A file belongs to the module of
// the nearest go.mod above it; an internal package to the module whose
// path is the longest prefix of its own.
func foreignInternalImports(t *testing.T, root string) []string {
	t.Helper()
	modules := map[string]string{} // directory → module path
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")):
			return filepath.SkipDir
		case d.IsDir():
			if mod, ok := modulePath(t, filepath.Join(p, "go.mod")); ok {
				modules[p] = mod
			}
		case strings.HasSuffix(p, ".go"):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, file := range files {
		found = append(found, foreignImportsOf(t, modules, file)...)
	}
	slices.Sort(found)
	return found
}

// foreignImportsOf says each import of file, a Go file of the repository
// whose modules are modules, under another module's internal/.
func foreignImportsOf(t *testing.T, modules map[string]string, file string) []string {
	own := owningModule(modules, filepath.Dir(file))
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, spec := range f.Imports {
		imp, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			t.Fatal(err)
		}
		if !isInternal(imp) {
			continue
		}
		if owner := internalOwner(modules, imp); owner != "" && owner != own {
			found = append(found, fmt.Sprintf("%s imports %q, internal to module %s: use that module's public API, or give module %s code of its own", file, imp, owner, own))
		}
	}
	return found
}

// modulePath returns the module path a go.mod declares, if the file exists.
func modulePath(t *testing.T, gomod string) (string, bool) {
	t.Helper()
	f, err := os.Open(gomod)
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), true
		}
	}
	t.Fatalf("%s declares no module", gomod)
	return "", false
}

// owningModule returns the path of the module whose go.mod is nearest
// above dir.
func owningModule(modules map[string]string, dir string) string {
	for {
		if mod, ok := modules[dir]; ok {
			return mod
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isInternal reports whether an import path names a package under an
// internal/ directory, which the go command keeps to the tree above it.
func isInternal(imp string) bool {
	return strings.HasSuffix(imp, "/internal") || strings.Contains(imp, "/internal/")
}

// internalOwner returns the repository's module that holds the package
// imp, the one whose path is its longest prefix; "" for a package of no
// module here.
func internalOwner(modules map[string]string, imp string) string {
	owner := ""
	for _, mod := range modules {
		if (imp == mod || strings.HasPrefix(imp, mod+"/")) && len(mod) > len(owner) {
			owner = mod
		}
	}
	return owner
}
