package httpcache

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseCacheControl(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  directives
	}{
		{"none", nil, directives{}},
		{"one", []string{"max-age=60"}, directives{"max-age": "60"}},
		{"several, spaces, case", []string{" Private , MAX-AGE=5,no-cache"}, directives{"private": "", "max-age": "5", "no-cache": ""}},
		{"quoted comma", []string{`no-cache="Set-Cookie, X", max-age=1`}, directives{"no-cache": "Set-Cookie, X", "max-age": "1"}},
		{"escaped quote", []string{`ext="a\"b,c"`}, directives{"ext": `a"b,c`}},
		{"first of repeated wins", []string{"max-age=1", "max-age=9"}, directives{"max-age": "1"}},
		{"empty parts skipped", []string{",,max-age=3,", "=4"}, directives{"max-age": "3"}},
		{"quoted number", []string{`max-age="7"`}, directives{"max-age": "7"}},
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
		d := directives{}
		if !tc.absent {
			d["max-age"] = tc.value
		}
		got, present, ok := d.seconds("max-age")
		assert.Equal(t, tc.want, got, tc.value)
		assert.Equal(t, tc.present, present, tc.value)
		assert.Equal(t, tc.ok, ok, tc.value)
	}
}
