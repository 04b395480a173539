package gamedatatest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hello is a handler of one's own for the middleware to wrap.
var hello = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, `{"hello":"`+r.URL.Path+`"}`)
})

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func TestInjectFaultsAttempts(t *testing.T) {
	t.Parallel()
	fi := InjectFaults(hello, Faults{Rate: 1, Kinds: []Fault{Fault502}, Attempts: 2})
	srv := httptest.NewServer(fi)
	defer srv.Close()
	defer fi.Close()
	var got []int
	for _, path := range []string{"/api/a", "/api/a", "/api/a", "/api/b", "/api/a?x=1", "/other"} {
		status, _ := fetch(t, srv.URL+path)
		got = append(got, status)
	}
	assert.Equal(t, []int{502, 502, 200, 502, 502, 200}, got, "the first two of each URL under /api/")

	fi.Set(Faults{Rate: 1, Kinds: []Fault{Fault502}, Attempts: 1})
	status, _ := fetch(t, srv.URL+"/api/a")
	assert.Equal(t, 502, status, "Set restarts the counts")
	assert.Len(t, fi.Requests(), 7)
}

func TestInjectFaultsMatchAndAnswer(t *testing.T) {
	t.Parallel()
	var seen Response
	fi := InjectFaults(hello, Faults{
		Rate:  1,
		Match: func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/2") },
		Answer: func(w http.ResponseWriter, r *http.Request, real Response) {
			seen = real
			w.WriteHeader(http.StatusTeapot)
			w.Write(real.Body[:3])
		},
	})
	srv := httptest.NewServer(fi)
	defer srv.Close()
	defer fi.Close()

	status, body := fetch(t, srv.URL+"/page/1")
	assert.Equal(t, 200, status)
	assert.Equal(t, `{"hello":"/page/1"}`, body)
	status, body = fetch(t, srv.URL+"/page/2")
	assert.Equal(t, http.StatusTeapot, status)
	assert.Equal(t, `{"h`, body)
	assert.Equal(t, `{"hello":"/page/2"}`, string(seen.Body), "the answer sees the real response")
	assert.Equal(t, 200, seen.Status)

	reqs := fi.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, Request{Method: "GET", Path: "/page/2", Query: reqs[1].Query, Status: http.StatusTeapot,
		Fault: FaultCustom, Bytes: 3, Done: true}, reqs[1])
	assert.Zero(t, reqs[0].Fault)
}
