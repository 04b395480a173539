package message

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A debug line is one line beginning "gamedata: " once, each attribute
// key=value, every value sanitized and without the secrets a URL in it
// carries, whatever logged it.
func TestDebugHandler(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		log  func(*slog.Logger)
		want string
	}{
		{"attempt", func(l *slog.Logger) {
			l.Debug("gamedata: attempt", "method", "GET", "route", "/api/packages/{kind}/{ident}", "attempt", 2, "status", 200)
		}, "gamedata: attempt method=GET route=/api/packages/{kind}/{ident} attempt=2 status=200\n"},
		{"hostile value", func(l *slog.Logger) {
			l.Debug("gamedata: attempt", "error", "bad \x1b]0;pwned\x07answer\u202e\r\nnext")
		}, "gamedata: attempt error=\"bad answer next\"\n"},
		{"hostile key and message", func(l *slog.Logger) {
			l.Info("done\x1b[2J", "k\x1b[31m", "v")
		}, "gamedata: done k=v\n"},
		{"a URL's secrets", func(l *slog.Logger) {
			l.Debug("performing request", "url", "http://gd:s3cret@example.test/api/x?token=s3cret#s3cret")
		}, "gamedata: performing request url=\"http://xxxxx@example.test/api/x?token=xxxxx#xxxxx\"\n"},
		{"groups and attributes", func(l *slog.Logger) {
			l.With("call", 7).WithGroup("http").Debug("m", slog.Group("resp", "status", 503), "empty", "")
		}, "gamedata: m call=7 http.resp.status=503 http.empty=\"\"\n"},
	} {
		var b bytes.Buffer
		tt.log(slog.New(NewDebugHandler(&b)))
		assert.Equal(t, tt.want, b.String(), tt.name)
	}
}

// Lines logged at once from many goroutines, as a fan-out's attempts
// are, come out whole.
func TestDebugHandlerLinesDoNotMix(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	l := slog.New(NewDebugHandler(&b)).With("a", 1)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				l.Debug("gamedata: attempt", "route", "/api/dashboard")
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	assert.Len(t, lines, 400)
	for _, line := range lines {
		assert.Equal(t, "gamedata: attempt a=1 route=/api/dashboard", line)
	}
}
