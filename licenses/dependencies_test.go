package licenses

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/licensecheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowed are the licenses, as SPDX identifiers, a module may be under
// for its code to be built into what this project distributes under the
// Apache License 2.0: the permissive ones, and MPL-2.0, whose copyleft is
// per file (go-retryablehttp and go-cleanhttp: their files stay under the
// MPL, and a binary built with them may carry our terms; README.md says
// what that asks of a redistributor). OFL-1.1 covers the Liberation fonts
// a chart embeds, CC-BY-4.0 svgo (attribution, as MIT asks), FTL the
// FreeType rasterizer (see elected).
var allowed = map[string]bool{
	"Apache-2.0":   true,
	"MIT":          true,
	"MIT-0":        true,
	"BSD-2-Clause": true,
	"BSD-3-Clause": true,
	"ISC":          true,
	"MPL-2.0":      true,
	"OFL-1.1":      true,
	"CC-BY-4.0":    true,
	"FTL":          true,
}

// elected are the modules whose authors let a user choose between
// licenses, with the one we take and the file that holds its text: only
// that file is read for the module.
var elected = map[string]struct{ id, file string }{
	// LICENSE offers the FreeType License or GPL-2.0-or-later.
	"github.com/golang/freetype": {"FTL", "licenses/ftl.txt"},
}

// reviewed are license files in which the scanner recognizes no license,
// read by a person and found harmless, by module path and file name: a
// file not listed here that the scanner cannot read fails the test until
// someone reads it.
var reviewed = map[string]string{
	"modernc.org/sqlite/LICENSE-SQLITE": "SQLite's dedication to the public domain",
	"modernc.org/memory/LICENSE-LOGO":   "the address of the project logo's page on Wikimedia Commons, which is not in the module's code",
}

// TestDependencyLicensesAreAllowed checks the license of every module that
// a package of any module of the workspace imports, directly or not,
// tests included (go list all): each must have a license file whose
// licenses are all on the allowed list.
func TestDependencyLicensesAreAllowed(t *testing.T) {
	t.Parallel()
	mods := dependencies(t)
	require.NotEmpty(t, mods)
	for _, p := range problems(mods) {
		t.Error(p)
	}
}

// TestProblemsRefuses checks the checker on modules made for it: a
// license not on the list, a module without a license, a file nobody has
// read, and a choice taken.
func TestProblemsRefuses(t *testing.T) {
	t.Parallel()
	const (
		gpl = "This program is free software: you can redistribute it and/or modify it under the terms of the GNU General Public License as published by the Free Software Foundation, either version 3 of the License, or (at your option) any later version.\n"
		mit = "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the \"Software\"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:\n\nThe above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.\n\nTHE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n"
	)
	for _, tt := range []struct {
		name  string
		files map[string]string
		path  string
		want  []string
	}{
		{"permissive", map[string]string{"LICENSE": mit}, "example.com/mit", nil},
		{"copyleft", map[string]string{"LICENSE": gpl}, "example.com/gpl", []string{"example.com/gpl: LICENSE: GPL-3.0-or-later is not on the allowed list"}},
		{"one of two files", map[string]string{"LICENSE": mit, "COPYING": gpl}, "example.com/two", []string{"example.com/two: COPYING: GPL-3.0-or-later is not on the allowed list"}},
		{"none", map[string]string{"README": mit}, "example.com/none", []string{"example.com/none: no license file (LICENSE, LICENCE or COPYING) at the module's root"}},
		{"unread", map[string]string{"LICENSE": mit, "LICENSE-EXTRA": "Do what you like, but not on Sundays.\n"}, "example.com/unread",
			[]string{`example.com/unread: LICENSE-EXTRA: the scanner recognizes no license in it; read it and, if it is harmless, add "example.com/unread/LICENSE-EXTRA" to reviewed, saying what it is`}},
		{"reviewed", map[string]string{"LICENSE": mit, "LICENSE-SQLITE": "public domain\n"}, "modernc.org/sqlite", nil},
		{"elected", map[string]string{"LICENSE": "Your choice of two.\n", "licenses/ftl.txt": mit, "licenses/gpl.txt": gpl}, "github.com/golang/freetype",
			[]string{"github.com/golang/freetype: licenses/ftl.txt: want FTL, the license elected for it; found [MIT]"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range tt.files {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
			}
			assert.Equal(t, tt.want, problems([]module{{Path: tt.path, Dir: dir}}))
		})
	}
}

// module is a dependency: its path and its directory in the module cache.
type module struct{ Path, Dir string }

// dependencies lists, once each, the modules other than the workspace's
// own that a package of the workspace imports, tests included.
func dependencies(t *testing.T) []module {
	t.Helper()
	cmd := exec.Command("go", "list", "-test", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Dir}}{{end}}{{end}}", "work")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	var mods []module
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, dir, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		require.NotEmpty(t, dir, "%s: not in the module cache; go mod download it", path)
		if m := (module{path, dir}); !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	return mods
}

// problems says, a line each, what keeps mods from being distributed
// under the Apache License 2.0: a license not on the allowed list, a
// module with no license file, a license file the scanner cannot read
// that no one has reviewed.
func problems(mods []module) []string {
	var out []string
	for _, m := range mods {
		files := licenseFiles(m.Dir)
		if e, ok := elected[m.Path]; ok {
			files = []string{e.file}
		}
		if len(files) == 0 {
			out = append(out, m.Path+": no license file (LICENSE, LICENCE or COPYING) at the module's root")
		}
		for _, name := range files {
			out = append(out, fileProblems(m, name)...)
		}
	}
	return out
}

// fileProblems says what is wrong with the license file name of m.
func fileProblems(m module, name string) []string {
	text, err := os.ReadFile(filepath.Join(m.Dir, name))
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", m.Path, err)}
	}
	var ids []string
	for _, match := range licensecheck.Scan(text).Match {
		ids = append(ids, match.ID)
	}
	if e, ok := elected[m.Path]; ok && !slices.Contains(ids, e.id) {
		return []string{fmt.Sprintf("%s: %s: want %s, the license elected for it; found %v", m.Path, name, e.id, ids)}
	}
	if len(ids) == 0 {
		if _, ok := reviewed[m.Path+"/"+name]; ok {
			return nil
		}
		return []string{fmt.Sprintf("%s: %s: the scanner recognizes no license in it; read it and, if it is harmless, add %q to reviewed, saying what it is", m.Path, name, m.Path+"/"+name)}
	}
	var out []string
	for _, id := range ids {
		if !allowed[id] {
			out = append(out, fmt.Sprintf("%s: %s: %s is not on the allowed list", m.Path, name, id))
		}
	}
	return out
}

// licenseFiles are the names of the license files at the root of dir:
// LICENSE, LICENCE or COPYING, with any suffix (LICENSE.md,
// LICENSE-APACHE).
func licenseFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		upper := strings.ToUpper(e.Name())
		if e.Type().IsRegular() && !strings.HasSuffix(upper, ".GO") &&
			(strings.HasPrefix(upper, "LICENSE") || strings.HasPrefix(upper, "LICENCE") || strings.HasPrefix(upper, "COPYING")) {
			names = append(names, e.Name())
		}
	}
	return names
}
