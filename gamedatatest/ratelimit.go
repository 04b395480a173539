package gamedatatest

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter is the server's rate limit; a nil limiter means no limit.
type limiter struct {
	mu  sync.Mutex
	lim *rate.Limiter
}

func (l *limiter) set(perSecond float64, burst int, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if math.IsNaN(perSecond) || perSecond <= 0 {
		l.lim = nil
		return
	}
	burst = max(burst, 1)
	if l.lim == nil {
		l.lim = rate.NewLimiter(rate.Limit(perSecond), burst) // a new limit starts full
		return
	}
	l.lim.SetLimitAt(now, rate.Limit(perSecond))
	l.lim.SetBurstAt(now, burst)
}

// take spends a token. When none is left it reports how long until one is.
func (l *limiter) take(now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	lim := l.lim
	l.mu.Unlock()
	if lim == nil || lim.AllowN(now, 1) {
		return true, 0
	}
	missing := 1 - lim.TokensAt(now)
	return false, time.Duration(missing / float64(lim.Limit()) * float64(time.Second))
}
