package gamedata_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDocComments fails when an exported identifier of a library package
// of this module (the root, gamedatatest, internal/...) has no doc
// comment. Types, functions, methods of exported types, constants and
// variables are checked; in a parenthesized const or var group, a comment
// on the group covers the names in it that have none of their own. That a
// comment starts with the name is staticcheck's ST1020, ST1021 and ST1022
// (staticcheck.conf), which do not report a missing comment.
func TestDocComments(t *testing.T) {
	t.Parallel()
	dirs := libraryDirs(t, ".")
	if !slices.Contains(dirs, ".") || !slices.Contains(dirs, "gamedatatest") {
		t.Fatalf("library packages found: %q; want the root and gamedatatest among them", dirs)
	}
	for _, dir := range dirs {
		for _, problem := range undocumented(t, dir) {
			t.Error(problem)
		}
	}
}

// TestDocCommentsCatches checks the checker on a package written to break
// every rule once; U and Right, documented under another name, are
// staticcheck's to report.
func TestDocCommentsCatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `// Package bad breaks every rule once.
package bad

type T struct{}

// the comment does not start with the name.
type U struct{}

// A V starts with an article, which go doc reads well.
type V struct{}

func F() {}

// M is documented.
func (T) M() {}

func (T) N() {}

func (*U) O() {}

type unexported struct{}

func (unexported) Exported() {}

// G is documented as a group.
const (
	G1 = 1
	G2 = 2
)

const (
	// H1 is documented.
	H1 = 1
	H2 = 2
)

var Lonely = 1

// Wrong names something else.
var Right = 1

var a, B = 1, 2
`
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := undocumented(t, dir)
	want := []string{"type T", "func F", "method T.N", "method U.O", "const H2", "var Lonely", "var B"}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], ": "+w+":") {
			t.Errorf("problem %d = %q, want one about %s", i, got[i], w)
		}
	}
}

// TestLibraryDirsStopsAtNestedModules checks that the checker looks only
// at the packages of this module: a nested module's undocumented package
// is not its concern.
func TestLibraryDirsStopsAtNestedModules(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":        "module example.com/outer\n",
		"a/a.go":        "// Package a is documented.\npackage a\n",
		"nested/go.mod": "module example.com/outer/nested\n",
		"nested/b.go":   "package b\n\nfunc Undocumented() {}\n",
	})
	got := libraryDirs(t, root)
	if want := []string{filepath.Join(root, "a")}; !slices.Equal(got, want) {
		t.Errorf("libraryDirs = %q, want %q", got, want)
	}
}

// libraryDirs returns the directories under root, relative to it, that
// hold a package other than main, leaving out testdata and hidden
// directories and the modules nested in root's (a directory with a go.mod
// of its own, such as conformance or peers, whose generated code is not
// this module's).
func libraryDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
			return filepath.SkipDir
		}
		files := sourceFiles(t, path)
		if len(files) == 0 {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), files[0], nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		if f.Name.Name != "main" {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// sourceFiles returns the non-test Go files of dir.
func sourceFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
}

// undocumented returns one line for each exported identifier of the
// package in dir that has no doc comment, in source order.
func undocumented(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var problems []string
	report := func(pos token.Pos, what string, doc *ast.CommentGroup) {
		if doc.Text() == "" {
			problems = append(problems, fset.Position(pos).String()+": "+what+": no doc comment")
		}
	}
	for _, file := range sourceFiles(t, dir) {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if what := funcName(d); what != "" {
					report(d.Pos(), what, d.Doc)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					for _, n := range exportedNames(d, s) {
						report(n.Pos(), d.Tok.String()+" "+n.Name, specDoc(d, s))
					}
				}
			}
		}
	}
	return problems
}

// funcName names an exported function, or a method of an exported type,
// as "func F" or "method T.M"; it is "" for any other function.
func funcName(d *ast.FuncDecl) string {
	switch {
	case !d.Name.IsExported():
		return ""
	case d.Recv == nil:
		return "func " + d.Name.Name
	}
	if recv := receiverType(d.Recv.List[0].Type); ast.IsExported(recv) {
		return "method " + recv + "." + d.Name.Name
	}
	return ""
}

// exportedNames returns the exported names that spec s of d declares,
// leaving out those of a grouped spec with no comment of its own when the
// group has one: the group's comment covers them.
func exportedNames(d *ast.GenDecl, s ast.Spec) []*ast.Ident {
	var names []*ast.Ident
	switch s := s.(type) {
	case *ast.TypeSpec:
		names = []*ast.Ident{s.Name}
	case *ast.ValueSpec:
		if d.Lparen.IsValid() && s.Doc == nil && d.Doc != nil {
			return nil
		}
		names = s.Names
	}
	return slices.DeleteFunc(slices.Clone(names), func(n *ast.Ident) bool { return !n.IsExported() })
}

// specDoc is the doc comment of spec s of d: its own in a parenthesized
// group, d's otherwise.
func specDoc(d *ast.GenDecl, s ast.Spec) *ast.CommentGroup {
	if !d.Lparen.IsValid() {
		return d.Doc
	}
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Doc
	case *ast.ValueSpec:
		return s.Doc
	}
	return nil
}

// receiverType returns the name of a method's receiver type, without a
// pointer or type parameters.
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
