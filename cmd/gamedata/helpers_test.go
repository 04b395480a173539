package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTwin is a small twin for the command's tests.
func newTwin(t *testing.T, opts ...gamedatatest.Option) *gamedatatest.Server {
	t.Helper()
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSize(40, 6, 5)}, opts...)...)
	t.Cleanup(twin.Close)
	return twin
}

// twinGames are the games twin's directory lists, in its order.
func twinGames(twin *gamedatatest.Server) []gamedatatest.Entry {
	return twin.Catalog().Entries(url.Values{"kind": {"game"}})
}

// cli runs the program against the service at base with args, stdout and
// stderr as pipes, and returns its exit status and output.
func cli(t *testing.T, base string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), serviceArgs(base, args), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// serviceArgs is args with --base-url base and --rate 0 before them when
// the command args name calls the service: only such a command takes
// them.
func serviceArgs(base string, args []string) []string {
	f := newFactory(io.Discard, io.Discard)
	cmd, _, err := newCmdRoot(f, commands(f)...).Find(args)
	if err != nil || cmd.Flags().Lookup("base-url") == nil {
		return args
	}
	return append([]string{"--base-url", base, "--rate", "0"}, args...)
}

// ndjson parses output of one JSON object a line.
func ndjson(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	s := bufio.NewScanner(strings.NewReader(out))
	s.Buffer(nil, 16<<20)
	for s.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(s.Bytes(), &m), "line %q", s.Text())
		rows = append(rows, m)
	}
	return rows
}

func csvRows(t *testing.T, out string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	return rows
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// lineWriter is a stream a running command writes while a test reads it:
// each complete line is also sent on lines, so a test waits for output
// instead of polling for it.
type lineWriter struct {
	mu      sync.Mutex
	b       bytes.Buffer
	partial []byte
	lines   chan string
}

func newLineWriter() *lineWriter { return &lineWriter{lines: make(chan string, 1<<16)} }

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.lines <- string(l.partial[:i])
		l.partial = l.partial[i+1:]
	}
	return len(p), nil
}

func (l *lineWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// next waits for the next line, or fails the test when ctx ends first
// with no line left.
func (l *lineWriter) next(t *testing.T, ctx context.Context) string {
	t.Helper()
	select {
	case line := <-l.lines:
		return line
	case <-ctx.Done():
	}
	select { // a line written just before ctx ended still counts
	case line := <-l.lines:
		return line
	default:
		t.Fatalf("no line came before the command ended; output so far: %q", l.String())
		return ""
	}
}

// fixed is a service that answers each path with a fixed status and body:
// the hostile answers the twin cannot give.
func fixed(t *testing.T, answers map[string]answer) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(max(a.status, http.StatusOK))
		w.Write([]byte(a.body))
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// answer is a fixed answer: its status (200 when 0) and its body.
type answer struct {
	status int
	body   string
}

// holdPage serves the twin, holding the directory's page until release
// is closed or the request is abandoned: a test proves a command does
// something before the walk can end by releasing that page only once it
// has seen it done.
func holdPage(t *testing.T, twin *gamedatatest.Server, page string, release <-chan struct{}) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/dashboard" && r.URL.Query().Get("page") == page {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		twin.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// guard bounds a test that would otherwise hang on a regression (a
// command that waits for a page a test holds until the command shows
// progress): it only turns that hang into a failure, and never decides a
// passing run.
func guard(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// parsed is what a command was about to run with: its options, and
// whether the context it was given has a deadline.
type parsed struct {
	common  common
	opts    any
	bounded bool
}

// parseArgs runs the program with args, every command stopping once its
// flags are parsed, and returns what the command would have run with.
func parseArgs(t *testing.T, args ...string) (parsed, error) {
	t.Helper()
	var p parsed
	keep := func(ctx context.Context, c common, opts any) error {
		p = parsed{common: c, opts: opts}
		_, p.bounded = ctx.Deadline()
		return nil
	}
	f := newFactory(io.Discard, io.Discard)
	defer f.close()
	root := newCmdRoot(f,
		newCmdList(f, func(ctx context.Context, o *listOptions) error { return keep(ctx, o.common, o) }),
		newCmdOrgs(f, func(ctx context.Context, o *orgsOptions) error { return keep(ctx, o.common, o) }),
		newCmdGet(f, func(ctx context.Context, o *getOptions) error { return keep(ctx, o.common, o) }),
		newCmdSearch(f, func(ctx context.Context, o *searchOptions) error { return keep(ctx, o.common, o) }),
		newCmdActivity(f, func(ctx context.Context, o *activityOptions) error { return keep(ctx, o.common, o) }),
		newCmdAnalytics(f, func(ctx context.Context, o *analyticsOptions) error { return keep(ctx, o.common, o) }),
		newCmdExport(f, func(ctx context.Context, o *exportOptions) error { return keep(ctx, o.common, o) }),
		newCmdChart(f, func(ctx context.Context, o *chartOptions) error { return keep(ctx, o.common, o) }),
		newCmdSync(f, func(ctx context.Context, o *syncOptions) error { return keep(ctx, o.common, o) }),
		newCmdWatch(f, func(ctx context.Context, o *watchOptions) error { return keep(ctx, o.common, o) }),
		newCmdExporter(f, func(ctx context.Context, o *exporterOptions) error { return keep(ctx, o.common, o) }),
		newCmdBackfill(f, func(ctx context.Context, o *backfillOptions) error { return keep(ctx, o.common, o) }),
		newCmdPrune(f, func(ctx context.Context, o *pruneOptions) error { return keep(ctx, o.common, o) }),
		newCmdAPI(f, func(ctx context.Context, o *apiOptions) error { return keep(ctx, o.common, o) }),
	)
	runnable := 0
	for _, c := range root.Commands() {
		if c.Runnable() {
			runnable++
		}
	}
	require.Equal(t, len(commands(f)), runnable, "parseArgs stops every command")
	root.SetArgs(args)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	err := root.ExecuteContext(context.Background())
	return p, err
}

// assertInert fails when s holds anything a terminal could act on.
func assertInert(t *testing.T, s, what string) {
	t.Helper()
	assert.True(t, utf8.ValidString(s), "%s is valid UTF-8", what)
	for _, r := range s {
		if r == '\n' {
			continue
		}
		assert.False(t, r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e), "%s holds %U: %q", what, r, s)
	}
}

// runEnv runs the program with args and only env in its environment (no
// base URL unless env or args give one), stdout and stderr as pipes, and
// returns its exit status and output. A command that would run until
// interrupted (a watch) is cut by guard's bound.
func runEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	f := newFactory(&stdout, &stderr)
	f.getenv = func(name string) string { return env[name] }
	code := runWith(guard(t), f, args)
	return code, stdout.String(), stderr.String()
}

// onTerminal runs the program as cli does, but as a person would in a
// terminal width cells wide: stdout and stderr are terminals.
func onTerminal(t *testing.T, base string, width int, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	f := newFactory(&stdout, &stderr)
	f.io.outTTY, f.io.errTTY, f.io.width = true, true, width
	code := runWith(context.Background(), f, serviceArgs(base, args))
	return code, stdout.String(), stderr.String()
}

// cancelOnWrite is a stream that cancels a command's context at its
// first write: the synchronization point at which a test knows the
// user's program has started printing.
type cancelOnWrite struct {
	mu     sync.Mutex
	b      bytes.Buffer
	cancel context.CancelFunc
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cancel()
	return c.b.Write(p)
}

func (c *cancelOnWrite) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.String()
}

// runUntil runs the program with args against base in ctx, and returns
// its exit status and output, or fails the test when it has not ended
// within guard's bound: a program that ignores its context would hang.
func runUntil(t *testing.T, ctx context.Context, stdout io.Writer, base string, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, serviceArgs(base, args), stdout, &stderr)
	}()
	select {
	case code := <-done:
		return code, stderr.String()
	case <-guard(t).Done():
		t.Fatalf("%v: still running a minute after its context ended", args)
		return 0, ""
	}
}
