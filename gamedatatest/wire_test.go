package gamedatatest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWireMembersSorted checks what the files of the wire format say of
// every struct they declare: its members are declared sorted by name, the
// order the twin has always written them in.
func TestWireMembersSorted(t *testing.T) {
	t.Parallel()
	structs := 0
	for _, name := range []string{"internal/catalog/wire.go", "reply.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		require.NoError(t, err)
		structs += sortedMembers(t, f)
	}
	assert.Greater(t, structs, 10, "the structs of the wire format")
}

// sortedMembers checks the JSON structs of f and returns how many there
// are.
func sortedMembers(t *testing.T, f *ast.File) int {
	t.Helper()
	structs := 0
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := spec.Type.(*ast.StructType)
		if !ok {
			return false
		}
		var names []string
		for _, field := range st.Fields.List {
			if field.Tag == nil {
				return false // not written by encoding/json
			}
			tag, err := strconv.Unquote(field.Tag.Value)
			require.NoError(t, err)
			name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			names = append(names, name)
		}
		structs++
		assert.True(t, slices.IsSorted(names), "%s: members %v, want them sorted", spec.Name.Name, names)
		return false
	})
	return structs
}
