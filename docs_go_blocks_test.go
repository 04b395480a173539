package gamedata_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDocsGoBlocksRun fails when a Go block of README.md or of a page in
// docs/ does not stand, as written, in a test or in an example with an
// output comment of this repository: there it compiles and runs on every
// go test, so a guide's example cannot stop compiling, or crash, unseen
// (docs_examples_test.go holds the ones written for the guides). White
// space is not compared, so a block may be indented or aligned otherwise
// than the function it stands in.
func TestDocsGoBlocksRun(t *testing.T) {
	t.Parallel()
	for _, problem := range unrunGoBlocks(t, ".") {
		t.Error(problem)
	}
}

// TestDocsGoBlocksRunCatches checks the checker: a block in an example
// without an output comment (compiled, never run), one in a helper that
// is no test, one nowhere, and one that runs.
func TestDocsGoBlocksRunCatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"README.md": "# x\n\n```go\nfmt.Println(1)\n```\n\n```go\nfmt.Println(2)\n```\n",
		"docs/guide.md": "```go\nfmt.Println(3)\n```\n\n```go\nfor range 2 {\n\tfmt.Println(4)   // four\n}\n```\n" +
			"```sh\nnot go\n```\n",
		"x_test.go": "package x\n\nimport \"fmt\"\n\n" +
			"func ExampleOne() {\n\tfmt.Println(1)\n}\n\n" +
			"func helper() {\n\tfmt.Println(2)\n}\n\n" +
			"func ExampleFour() {\n\tfor range 2 {\n\t\t  fmt.Println(4) // four\n\t}\n\t// Output:\n\t// 4\n\t// 4\n}\n",
	})
	problems := unrunGoBlocks(t, dir)
	assert.Len(t, problems, 3, "%q", problems)
	for i, want := range []string{"README.md: the Go block at line 3", "README.md: the Go block at line 7", filepath.FromSlash("docs/guide.md") + ": the Go block at line 1"} {
		if i < len(problems) {
			assert.Contains(t, problems[i], want)
		}
	}
}

// goBlock is a fenced Go block of a markdown file, and where it starts.
type goBlock struct {
	file  string
	line  int
	lines []string // normalized (see codeLines)
}

// unrunGoBlocks returns a line for each Go block of root's README.md and
// docs/ that no test, and no example with an output comment, of a
// _test.go file under root holds.
func unrunGoBlocks(t *testing.T, root string) []string {
	t.Helper()
	var hosts [][]string
	var blocks []goBlock
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case strings.HasSuffix(path, "_test.go"):
			hosts = append(hosts, runFunctions(t, path)...)
		case rel == "README.md" || strings.HasPrefix(rel, "docs"+string(filepath.Separator)) && strings.HasSuffix(rel, ".md"):
			blocks = append(blocks, goBlocks(t, path, rel)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, b := range blocks {
		if !slices.ContainsFunc(hosts, func(h []string) bool { return containsRun(h, b.lines) }) {
			problems = append(problems, b.file+": the Go block at line "+strconv.Itoa(b.line)+" stands in no test and no example with an output comment: add one that holds it as written (docs_examples_test.go)")
		}
	}
	return problems
}

// goBlocks returns the ```go blocks of the markdown file at path.
func goBlocks(t *testing.T, path, name string) []goBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []goBlock
	var open *goBlock
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case open == nil && strings.TrimSpace(line) == "```go":
			open = &goBlock{file: name, line: i + 1}
		case open != nil && strings.TrimSpace(line) == "```":
			open.lines = codeLines(strings.Join(open.lines, "\n"))
			blocks = append(blocks, *open)
			open = nil
		case open != nil:
			open.lines = append(open.lines, line)
		}
	}
	return blocks
}

// runFunctions returns the source of each function of the test file at
// path that go test runs: a Test, or an Example with an output comment.
func runFunctions(t *testing.T, path string) [][]string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil {
			continue
		}
		body := src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset]
		switch {
		case strings.HasPrefix(fn.Name.Name, "Test"):
		case strings.HasPrefix(fn.Name.Name, "Example") && outputComment.Match(body):
		default:
			continue
		}
		out = append(out, codeLines(string(body)))
	}
	return out
}

// outputComment is the comment that makes go test run an example.
var outputComment = regexp.MustCompile(`(?m)^\s*// (Unordered output|Output):`)

// codeLines is Go source as the check compares it: a line a line, white
// space folded, blank lines left out.
func codeLines(src string) []string {
	var lines []string
	for _, line := range strings.Split(src, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			lines = append(lines, strings.Join(f, " "))
		}
	}
	return lines
}

// containsRun tells whether want stands in have as a run of consecutive
// lines.
func containsRun(have, want []string) bool {
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return len(want) == 0
}
