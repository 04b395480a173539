package gamedata

import (
	"testing"
	"time"
)

// deadlockGuard bounds a wait that only a broken client makes long: the
// test fails after it instead of hanging. It is never what a test asserts,
// and is far beyond anything a busy machine takes.
const deadlockGuard = time.Minute

// await receives from ch, or fails the test with what after deadlockGuard.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(deadlockGuard):
	}
	t.Fatalf("still waiting after %s: %s", deadlockGuard, what)
	var zero T
	return zero
}
