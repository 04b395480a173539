package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No struct of the command, its packages or their tests holds a
// context.Context: a context is passed as the first argument of what it
// bounds, so that what ends a call is in its signature, not in a value
// made earlier (the context package's own rule).
func TestNoContextHeldInAStruct(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	var held []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, field := range st.Fields.List {
					if isContext(field.Type) {
						held = append(held, fset.Position(field.Pos()).String())
					}
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, held, "pass the context as the first argument of what it bounds")
}

// isContext reports whether e names context.Context.
func isContext(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Context" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "context"
}
