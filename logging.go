package gamedata

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// attemptLine is what the debug line of an attempt says.
type attemptLine struct {
	route   string
	attempt int
	cache   CacheStatus // the call's so far
	resp    *http.Response
	err     error
	took    time.Duration
	waited  time.Duration // on the rate limiter
}

// logAttempt writes the debug line of an attempt of req: never a body, and
// an error's text only through the sanitizer, since it may quote what the
// service sent.
func logAttempt(l *slog.Logger, req *http.Request, a attemptLine) {
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		slog.String("route", a.route),
		slog.Int("attempt", a.attempt),
	}
	resp, err, cache := a.resp, a.err, a.cache
	switch {
	case err != nil:
		attrs = append(attrs, slog.String("error", sanitize.String(err.Error())))
	case resp.StatusCode == http.StatusNotModified:
		cache = CacheRevalidated
		fallthrough
	default:
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	attrs = append(attrs, slog.String("cache", cache.String()), slog.Duration("duration", a.took), slog.Duration("rate_limit_wait", a.waited))
	l.LogAttrs(req.Context(), slog.LevelDebug, "gamedata: attempt", attrs...)
}
