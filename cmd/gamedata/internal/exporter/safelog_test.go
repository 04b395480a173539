package exporter

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestSafeHandler writes, through safeHandler, records whose message,
// keys, values, errors, groups and attributes given beforehand carry
// what would steer a terminal and a value a YAML error quotes: none of it
// reaches the line, and the rest of the text does, numbers and times as
// they were.
func TestSafeHandler(t *testing.T) {
	const steer = "\x1b[2J\u202e\u200b"
	for _, tc := range []struct {
		name string
		log  func(*slog.Logger)
		want []string
	}{
		{"message", func(l *slog.Logger) { l.Warn("http: TLS handshake error" + steer) }, []string{`msg="http: TLS handshake error"`}},
		{"string", func(l *slog.Logger) { l.Info("refused", "user", steer+"root") }, []string{"user=root"}},
		{"key", func(l *slog.Logger) { l.Info("refused", "us"+steer+"er", "root") }, []string{"user=root"}},
		{"error", func(l *slog.Logger) { l.Error("failed", "err", errors.New("line\n2"+steer)) }, []string{`err="line 2"`}},
		{"yaml", func(l *slog.Logger) {
			l.Error("Unable to parse configuration", "err", "cannot unmarshal !!str `hunter2...` into map")
		},
			[]string{"cannot unmarshal !!str `xxxxx` into map"}},
		{"group", func(l *slog.Logger) { l.Info("refused", slog.Group("client", "name", steer+"root", "port", 9)) },
			[]string{"client.name=root", "client.port=9"}},
		{"empty attribute", func(l *slog.Logger) {
			l.LogAttrs(context.Background(), slog.LevelInfo, "refused", slog.Attr{}, slog.String("user", "root"))
		},
			[]string{"msg=refused user=root"}},
		{"with attrs", func(l *slog.Logger) { l.With("path", "/"+steer+"metrics").Info("refused") }, []string{"path=/metrics"}},
		{"with group", func(l *slog.Logger) { l.WithGroup("tls"+steer).Info("refused", "took", time.Second) }, []string{"tls.took=1s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out logBuffer
			tc.log(slog.New(safeHandler{slog.NewTextHandler(&out, nil)}))
			line := out.String()
			if strings.ContainsAny(line, "\x1b\u202e\u200b") || strings.Contains(line, `\u`) || strings.Contains(line, `\x`) || strings.Contains(line, "hunter2") {
				t.Errorf("%q: the steering characters or the quoted value came through", line)
			}
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q: no %q", line, w)
				}
			}
		})
	}
}
