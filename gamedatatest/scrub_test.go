package gamedatatest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCredentialLike(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Authorization": true, "X-Api-Key": true, "api_key": true, "access_token": true, "X-Amz-Security-Token": true,
		"sessionid": true, "PHPSESSID": true, "sid": true, "sig": true, "X-Client-Secret": true, "password": true,
		"key": true, "Private-Key": true, "Cookie": true,
		"Accept": false, "ETag": false, "Cache-Control": false, "kind": false, "pageSize": false, "q": false,
		"monkey": false, "Keep-Alive": false, "X-Request-Id": false, "Content-Type": false,
	} {
		assert.Equal(t, want, credentialLike(name), name)
	}
}

func TestScrubRules(t *testing.T) {
	t.Parallel()
	s, err := newScrubRules([]RecordingOption{ScrubHeaders("X-Trace-*", "x-secret-header"), ScrubQuery("Nonce")})
	require.NoError(t, err)
	h := s.header(http.Header{
		"Authorization": {"Bearer a"}, "User-Agent": {"u"}, "X-Forwarded-For": {"10.0.0.1"}, "X-Trace-Id": {"1"},
		"X-Secret-Header": {"s"}, "Accept": {"application/json"}, "If-None-Match": {`"x"`},
	})
	assert.Equal(t, http.Header{"Accept": {"application/json"}, "If-None-Match": {`"x"`}}, h)
	assert.Equal(t, "kind=game&page=2&filter=a&filter=b", s.rawQuery("kind=game&TOKEN=t&page=2&&api_key=k&filter=a&nonce=1&filter=b"))
	assert.Equal(t, "", s.rawQuery("access_token=x"))
}

func TestSecretsAreRedactedWhereverEchoed(t *testing.T) {
	t.Parallel()
	s, err := newScrubRules(nil)
	require.NoError(t, err)
	secrets := s.secrets(
		http.Header{"Authorization": {"Bearer tok/en+1"}, "Cookie": {`a=cookie1; b="cookie2"`}, "User-Agent": {"agent007"}},
		"token=qs%2F1&kind=game",
		http.Header{"Set-Cookie": {"sid=setcookie3; HttpOnly"}},
	)
	body := []byte(`{"echo":["Bearer tok/en+1","tok%2Fen%2B1","cookie1","cookie2","qs/1","qs%2F1","setcookie3","agent007","abc"]}`)
	assert.Equal(t, `{"echo":["REDACTED","REDACTED","REDACTED","REDACTED","REDACTED","REDACTED","REDACTED","REDACTED","abc"]}`, string(redact(body, secrets)))
	h := http.Header{"Location": {"/x?next=tok%2Fen%2B1"}}
	redactHeader(h, secrets)
	assert.Equal(t, "/x?next=REDACTED", h.Get("Location"))
}

// A secret that begins another is replaced after it, whatever header
// either came from: replaced first, it would leave the other's tail.
func TestSecretsAreRedactedLongestFirst(t *testing.T) {
	t.Parallel()
	s, err := newScrubRules(nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name       string
		req, resp  http.Header
		rawQuery   string
		body, want string
	}{
		{
			name: "a bearer token that begins a cookie",
			req:  http.Header{"Authorization": {"Bearer abcd"}}, resp: http.Header{"Set-Cookie": {"s=abcdefgh"}},
			body: `{"echo":"abcdefgh"}`, want: `{"echo":"REDACTED"}`,
		},
		{
			name: "a bearer token that begins a query key",
			req:  http.Header{"Authorization": {"Bearer wxyz"}}, rawQuery: "key=wxyz1234",
			body: `{"echo":"wxyz1234"}`, want: `{"echo":"REDACTED"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			secrets := s.secrets(tc.req, tc.rawQuery, tc.resp)
			assert.Equal(t, tc.want, string(redact([]byte(tc.body), secrets)))
		})
	}
}

// A removed parameter's value is a secret however the query is written,
// even in a pair that url.ParseQuery refuses (a ";" in it).
func TestSecretsOfQueryAsRemoved(t *testing.T) {
	t.Parallel()
	s, err := newScrubRules(nil)
	require.NoError(t, err)
	secrets := s.secrets(http.Header{}, "kind=game&key=sec;ret", http.Header{})
	assert.Equal(t, "kind=game", s.rawQuery("kind=game&key=sec;ret"))
	assert.Equal(t, `{"echo":"REDACTED"}`, string(redact([]byte(`{"echo":"sec;ret"}`), secrets)))
}
