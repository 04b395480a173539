package gamedata_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFilesDoNotLeanOnEachOther holds the layout of the root package, of
// cachetest, gamedatatest and the command, with every package under them:
// no two of a package's files reference each other both ways, except, in
// the root, client.go, the request path, with a file of the API that
// calls it and that it serves (one that declares methods of a service or
// of the Client). A helper used by a file that it itself uses lives in the
// wrong file.
//
// The references are those go/types resolves in the package's non-test
// files, type-checked on their own: an import is an empty package, so the
// check reads no other package and runs in a blink. That loses nothing of
// the package's own names, which resolve by scope, nor of its methods
// called on values of its own types; it would miss only a method of the
// package reached through a value whose type comes from another package,
// which Go does not allow.
func TestFilesDoNotLeanOnEachOther(t *testing.T) {
	t.Parallel()
	dirs := []string{"."}
	for _, root := range []string{"cachetest", "gamedatatest", filepath.Join("cmd", "gamedata")} {
		dirs = append(dirs, packageDirs(t, root)...)
	}
	for _, dir := range dirs {
		t.Run(filepath.ToSlash(dir), func(t *testing.T) {
			t.Parallel()
			refs, services := fileReferences(t, dir)
			for _, pair := range bothWays(refs) {
				a, b := pair[0], pair[1]
				if dir == "." && ((a == "client.go" && services[b]) || (b == "client.go" && services[a])) {
					continue
				}
				t.Errorf("%s and %s reference each other: %s uses %s of %s, and %s uses %s of %s; move the helper to the file it serves",
					a, b, a, strings.Join(refs[a][b], ", "), b, b, strings.Join(refs[b][a], ", "), a)
			}
		})
	}
}

// packageDirs returns root and every directory under it that holds a Go
// file other than a test, but testdata; none when there is no root, as in
// the library's module without the command beside it.
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == root:
			return filepath.SkipAll
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() && len(sourceFiles(t, p)) > 0:
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestFileReferencesCatchesACycle checks the checker on a package of three
// files where two lean on each other.
func TestFileReferencesCatchesACycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go": "package p\n\nimport \"strings\"\n\ntype T struct{}\n\nfunc (T) M() string { return strings.ToUpper(helper()) }\n",
		"b.go": "package p\n\nfunc helper() string { var t T; _ = t; return \"\" }\n",
		"c.go": "package p\n\nfunc C() string { var t T; return t.M() }\n",
	})
	refs, _ := fileReferences(t, dir)
	if got := bothWays(refs); !slices.Equal(got, [][2]string{{"a.go", "b.go"}}) {
		t.Errorf("bothWays = %v, want [[a.go b.go]]", got)
	}
	if got := refs["c.go"]["a.go"]; !slices.Equal(got, []string{"M", "T"}) {
		t.Errorf("c.go uses %v of a.go, want [M T]", got)
	}
}

// fileReferences type-checks the non-test files of the package in dir and
// returns, for each file, the names of the other files it uses, by file;
// and the files that declare methods of a service or of the Client.
func fileReferences(t *testing.T, dir string) (map[string]map[string][]string, map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range sourceFiles(t, dir) {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("p", fset, files, info) // errors are the empty imports'
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	refs := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || obj.Parent() == obj.Pkg().Scope().Parent() || !declaredAtTop(obj) {
			continue
		}
		from, to := fileOf(id.Pos()), fileOf(obj.Pos())
		if from == to {
			continue
		}
		if refs[from] == nil {
			refs[from] = map[string][]string{}
		}
		if !slices.Contains(refs[from][to], obj.Name()) {
			refs[from][to] = append(refs[from][to], obj.Name())
			slices.Sort(refs[from][to])
		}
	}
	services := map[string]bool{}
	for id, obj := range info.Defs {
		if fn, ok := obj.(*types.Func); ok && isServiceMethod(fn) {
			services[fileOf(id.Pos())] = true
		}
	}
	return refs, services
}

// declaredAtTop reports whether obj is declared at the package level, or
// is a method or a field: what one file can take from another.
func declaredAtTop(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return true
	case *types.Var:
		return o.IsField() || o.Parent() == o.Pkg().Scope()
	}
	return obj.Parent() == obj.Pkg().Scope()
}

// isServiceMethod reports whether fn is a method of one of the Client's
// services or an exported method of the Client.
func isServiceMethod(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	rt := recv.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	named, ok := rt.(*types.Named)
	if !ok {
		return false
	}
	name := named.Obj().Name()
	return strings.HasSuffix(name, "Service") || (name == "Client" && fn.Exported())
}

// bothWays returns the pairs of files that use each other, sorted.
func bothWays(refs map[string]map[string][]string) [][2]string {
	var pairs [][2]string
	for a, to := range refs {
		for b := range to {
			if a < b && len(refs[b][a]) > 0 {
				pairs = append(pairs, [2]string{a, b})
			}
		}
	}
	slices.SortFunc(pairs, func(x, y [2]string) int { return strings.Compare(x[0]+" "+x[1], y[0]+" "+y[1]) })
	return pairs
}

// emptyImporter imports every package as an empty one, named after its
// path, so a package type-checks alone.
type emptyImporter struct{}

func (emptyImporter) Import(p string) (*types.Package, error) {
	name := path.Base(p)
	if strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" && len(name) > 1 {
		name = path.Base(path.Dir(p))
	}
	pkg := types.NewPackage(p, strings.TrimPrefix(name, "go-"))
	pkg.MarkComplete()
	return pkg, nil
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeTree writes files, by their slash-separated paths under root,
// making the directories they need: a small repository for a checker's
// own test.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, content)
	}
}
