package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fenced block of README.md or docs/*.md whose info string is "sh
// runnable" is run by TestDocsRunnableBlocks, line by line, against the
// in-process twin; every other line of a shell block that runs gamedata
// is parsed by the command's own flags (TestDocsCommandLinesParse).
const runnableMarker = "runnable"

// helperEnv makes TestDocsHelperCommand act as the gamedata command.
const helperEnv = "GAMEDATA_DOCS_TEST_AS_COMMAND"

// shellLine is a line of a fenced shell block in the docs.
type shellLine struct {
	where    string // file:line, for messages
	text     string
	runnable bool
}

// docShellLines reads the lines of every fenced sh, bash or shell block
// of README.md and docs/*.md, blank lines and comment lines left out.
func docShellLines(t *testing.T) []shellLine {
	t.Helper()
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var lines []shellLine
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		s := bufio.NewScanner(f)
		inBlock, shell, runnable := false, false, false
		for n := 1; s.Scan(); n++ {
			text := s.Text()
			if strings.HasPrefix(text, "```") {
				if inBlock {
					inBlock = false
					continue
				}
				info := strings.Fields(strings.TrimPrefix(text, "```"))
				inBlock = true
				shell = len(info) > 0 && slices.Contains([]string{"sh", "bash", "shell"}, info[0])
				runnable = slices.Contains(info, runnableMarker)
				continue
			}
			trimmed := strings.TrimSpace(text)
			if !inBlock || !shell || trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			rel, _ := filepath.Rel(root, file)
			lines = append(lines, shellLine{where: fmt.Sprintf("%s:%d", rel, n), text: trimmed, runnable: runnable})
		}
		require.NoError(t, s.Err())
		require.NoError(t, f.Close())
	}
	return lines
}

// TestDocsRunnableBlocks runs each line of the docs' runnable blocks with
// sh, in a temporary directory, with "gamedata" on PATH being this test
// binary acting as the command (TestDocsHelperCommand), so the program
// the docs show is the one under test without a second build. No base
// URL is given, so each line runs against the in-process twin, offline.
func TestDocsRunnableBlocks(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH: the docs' runnable blocks are shell")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	bin, work := t.TempDir(), t.TempDir()
	script := fmt.Sprintf("#!%s\nexec '%s' -test.run='^TestDocsHelperCommand$' -- \"$@\"\n", sh, exe)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gamedata"), []byte(script), 0o755))
	env := []string{helperEnv + "=1", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + work, "TMPDIR=" + work}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains([]string{"GAMEDATA_BASE_URL", "PATH", "HOME", "TMPDIR", helperEnv}, name) {
			env = append(env, kv)
		}
	}
	ran := 0
	for _, line := range docShellLines(t) {
		if !line.runnable {
			continue
		}
		ran++
		t.Run(line.where, func(t *testing.T) {
			require.True(t, strings.HasPrefix(line.text, "gamedata "), "%s: a runnable block runs only gamedata: %s", line.where, line.text)
			// A bound, so that a line that never ends (a watch) fails
			// instead of hanging the test.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, sh, "-c", line.text)
			cmd.Dir, cmd.Env = work, env
			out, err := cmd.CombinedOutput()
			assert.NoError(t, err, "%s: %s\n%s", line.where, line.text, out)
		})
	}
	assert.NotZero(t, ran, "no block of README.md or docs/*.md is marked ```sh %s", runnableMarker)
}

// TestDocsHelperCommand is the gamedata command when TestDocsRunnableBlocks
// runs this test binary as it; otherwise it skips.
func TestDocsHelperCommand(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("run by TestDocsRunnableBlocks as the gamedata command")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, flag.Args(), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// TestDocsCommandLinesParse checks the docs' shell lines that are not run:
// each gamedata line (also as "go run ./cmd/gamedata …" or "go -C
// cmd/gamedata run . …", and after a crontab schedule) names a command
// and flags and arguments that command takes, and each "go run ./DIR"
// names a directory of the repository.
func TestDocsCommandLinesParse(t *testing.T) {
	for _, line := range docShellLines(t) {
		if line.runnable {
			continue
		}
		words, err := shellWords(line.text)
		require.NoError(t, err, "%s: %s", line.where, line.text)
		args, ok := gamedataArgs(words)
		if ok {
			f := newFactory(io.Discard, io.Discard)
			root := newCmdRoot(f, commands(f)...)
			cmd, rest, err := root.Find(args)
			if !assert.NoError(t, err, "%s: %s", line.where, line.text) {
				continue
			}
			if !assert.NoError(t, cmd.ParseFlags(rest), "%s: %s", line.where, line.text) {
				continue
			}
			if cmd.Args != nil {
				assert.NoError(t, cmd.Args(cmd, cmd.Flags().Args()), "%s: %s", line.where, line.text)
			}
			continue
		}
		if len(words) > 2 && words[0] == "go" && words[1] == "run" && strings.HasPrefix(words[2], "./") {
			assert.DirExists(t, filepath.Join("..", "..", words[2]), "%s: %s", line.where, line.text)
		}
	}
}

// gamedataArgs returns the arguments words give the gamedata command, and
// whether they run it at all. A redirection, pipe or list operator ends
// the command's words.
func gamedataArgs(words []string) ([]string, bool) {
	if i := slices.IndexFunc(words, isShellOperator); i >= 0 {
		words = words[:i]
	}
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/gamedata":
		return words[3:], true
	case len(words) >= 5 && words[0] == "go" && words[1] == "-C" && words[2] == "cmd/gamedata" && words[3] == "run" && words[4] == ".":
		return words[5:], true
	}
	if i := slices.Index(words, "gamedata"); i >= 0 {
		return words[i+1:], true
	}
	return nil, false
}

// isShellOperator reports whether word is one of sh's redirection, pipe
// or list operators, written as a word of its own.
func isShellOperator(word string) bool {
	return slices.Contains([]string{">", ">>", "<", "|", "||", "&&", ";", "&", "2>", "2>&1"}, word)
}

// shellWords splits a line as sh would split a simple command: words
// parted by blanks, '…' and "…" quoting, a backslash escaping the next
// character, and a word that begins with # starting a comment. Expansions
// are left as written.
func shellWords(line string) ([]string, error) {
	var s wordSplitter
	for _, r := range line {
		switch {
		case s.quoted(r):
		case r == '\'' || r == '"':
			s.quote, s.inWord = r, true
		case r == ' ' || r == '\t':
			s.endWord()
		case r == '#' && !s.inWord:
			return s.words, nil
		default:
			s.word.WriteRune(r)
			s.inWord = true
		}
	}
	if s.quote != 0 || s.escaped {
		return nil, fmt.Errorf("unterminated quote or escape in %q", line)
	}
	s.endWord()
	return s.words, nil
}

// wordSplitter is where shellWords is in a line: the words read, the one
// being read, and the quote or the backslash it is in.
type wordSplitter struct {
	words   []string
	word    strings.Builder
	inWord  bool
	quote   rune
	escaped bool
}

// quoted takes r as a quote or a backslash has it, and reports whether
// one did: the character escaped, the quote's end, a character inside
// '…' or "…", or a backslash, which escapes the next one in "…" too.
func (s *wordSplitter) quoted(r rune) bool {
	switch {
	case s.escaped:
		s.word.WriteRune(r)
		s.escaped = false
	case s.quote != 0 && r == s.quote:
		s.quote = 0
	case s.quote == '\'':
		s.word.WriteRune(r)
	case r == '\\':
		s.escaped, s.inWord = true, true
	case s.quote == '"':
		s.word.WriteRune(r)
	default:
		return false
	}
	return true
}

// endWord ends the word being read, if there is one.
func (s *wordSplitter) endWord() {
	if s.inWord {
		s.words = append(s.words, s.word.String())
		s.word.Reset()
		s.inWord = false
	}
}
