package gamedata

import (
	"context"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// retryPolicy is the client's retryablehttp.CheckRetry: network errors,
// broken bodies, 429 and 5xx other than 501 are retried. A Retry-After
// beyond backoffMax is not waited for: the call fails at once and the
// *APIError carries the wait, so nothing hangs and nothing retries early
// against the service's word.
func retryPolicy(backoffMax time.Duration) func(context.Context, *http.Response, error) (bool, error) {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			return retryableError(err), err
		}
		if resp.StatusCode != http.StatusTooManyRequests &&
			(resp.StatusCode < 500 || resp.StatusCode == http.StatusNotImplemented) {
			return false, nil
		}
		return retryAfter(resp) <= backoffMax, nil
	}
}

// retryableError tells transient failures from those that the same request
// would meet again.
func retryableError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var invalidCert x509.CertificateInvalidError
	var hostname x509.HostnameError
	switch {
	case errors.Is(err, errLimiterDeadline),
		errors.Is(err, ErrRedirectRefused),
		errors.Is(err, ErrPageOutOfRange),
		errors.Is(err, ErrResponseTooLarge),
		errors.Is(err, ErrTooManyRedirects),
		errors.As(err, &unknownAuthority),
		errors.As(err, &invalidCert),
		errors.As(err, &hostname):
		return false
	}
	return true
}

// backoff is the client's retryablehttp.Backoff: the wait the service asked
// for with Retry-After when it gave one (retryPolicy has already refused a
// wait beyond hi), otherwise exponential from lo with "equal jitter":
// between half and all of lo·2^attempt, capped at hi.
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait := retryAfter(resp); wait > 0 {
			return wait
		}
	}
	d := lo
	for range attempt {
		if d >= hi/2 {
			d = hi
			break
		}
		d *= 2
	}
	d = min(d, hi)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// retryAfter reads Retry-After on a 429 or 503, in seconds or as an HTTP
// date. It returns 0 when there is none, or when it is in the past.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return 0
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		if secs > int64(365*24*time.Hour/time.Second) {
			secs = int64(365 * 24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		if d := time.Until(at); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}
