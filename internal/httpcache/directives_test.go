package httpcache

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseCacheControl(t *testing.T) {
	minute := seconds{v: time.Minute, present: true, ok: true}
	for _, tc := range []struct {
		name  string
		lines []string
		want  directives
	}{
		{"none", nil, directives{}},
		{"one", []string{"max-age=60"}, directives{maxAge: minute}},
		{"several, spaces, case", []string{" Private , MAX-AGE=60,no-cache"}, directives{maxAge: minute, noCache: true}},
		{"each acted on", []string{"no-store, must-revalidate, stale-if-error=60"}, directives{noStore: true, mustRevalidate: true, staleIfError: minute}},
		{"quoted comma", []string{`no-cache="Set-Cookie, max-age=1", max-age=60`}, directives{noCache: true, maxAge: minute}},
		{"escaped quote", []string{`ext="a\"b,max-age=1", max-age=60`}, directives{maxAge: minute}},
		{"first of repeated wins", []string{"max-age=60", "max-age=9"}, directives{maxAge: minute}},
		{"empty parts skipped", []string{",,max-age=60,", "=4"}, directives{maxAge: minute}},
		{"quoted number", []string{`max-age="60"`}, directives{maxAge: minute}},
		{"not a number", []string{"max-age=soon"}, directives{maxAge: seconds{present: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, parseCacheControl(http.Header{"Cache-Control": tc.lines}))
		})
	}
}

func TestDirectiveSeconds(t *testing.T) {
	for _, tc := range []struct {
		value       string
		want        time.Duration
		present, ok bool
		absent      bool
	}{
		{value: "60", want: time.Minute, present: true, ok: true},
		{value: "0", want: 0, present: true, ok: true},
		{value: "-1", present: true},
		{value: "1.5", present: true},
		{value: "", present: true},
		{value: "99999999999999999999", want: (1 << 31) * time.Second, present: true, ok: true},
		{absent: true},
	} {
		var lines []string
		if !tc.absent {
			lines = []string{"max-age=" + tc.value}
		}
		got := parseCacheControl(http.Header{"Cache-Control": lines}).maxAge
		assert.Equal(t, seconds{v: tc.want, present: tc.present, ok: tc.ok}, got, tc.value)
	}
}
