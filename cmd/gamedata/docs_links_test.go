package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markdownLink is a link's target in markdown: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinks checks every relative link of the repository's markdown
// (README.md, SECURITY.md, CHANGELOG.md, BENCHMARKS.md, docs/ and the
// generated reference): the file or directory it names exists, and the
// heading its #anchor names is in that file, as GitHub makes anchors.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, pattern := range []string{"*.md", "docs/*.md", "docs/commands/*.md"} {
		found, err := filepath.Glob(filepath.Join(root, pattern))
		require.NoError(t, err)
		files = append(files, found...)
	}
	require.NotEmpty(t, files)
	for _, file := range files {
		body, err := os.ReadFile(file)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, file)
		for _, m := range markdownLink.FindAllStringSubmatch(outsideFences(string(body)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
			}
			if !assert.True(t, fileOrDir(dest), "%s: link %s: no such file or directory", rel, target) {
				continue
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			headings, err := os.ReadFile(dest)
			require.NoError(t, err)
			assert.Contains(t, anchors(string(headings)), anchor, "%s: link %s: no such heading", rel, target)
		}
	}
}

// fileOrDir reports whether path exists.
func fileOrDir(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// outsideFences is markdown with its fenced blocks blanked, so that a
// "# comment" in a shell block is not taken for a heading, nor code for a
// link.
func outsideFences(md string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			in = !in
			b.WriteString("\n")
			continue
		}
		if in {
			b.WriteString("\n")
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// anchors are the anchors GitHub gives md's headings: lower case, every
// character but letters, digits, spaces, hyphens and underscores dropped,
// spaces made hyphens, a repeated one suffixed -1, -2, ….
func anchors(md string) []string {
	var out []string
	seen := map[string]int{}
	for line := range strings.Lines(outsideFences(md)) {
		line = strings.TrimRight(line, "\n")
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		var a strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				a.WriteRune(r)
			case r == ' ':
				a.WriteRune('-')
			}
		}
		anchor := a.String()
		if n := seen[anchor]; n > 0 {
			out = append(out, anchor+"-"+strconv.Itoa(n))
		} else {
			out = append(out, anchor)
		}
		seen[anchor]++
	}
	return out
}
