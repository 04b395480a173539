package gamedatatest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client that has read a whole answer finds its entry final, even while
// the handler that sent it has not returned: a body of its declared
// length, bigger than any buffer on the way, goes out whole before the
// handler blocks.
func TestEntryFinalOnceTheClientHasTheAnswer(t *testing.T) {
	t.Parallel()
	body := bytes.Repeat([]byte("x"), 256<<10)
	release := make(chan struct{})
	fi := InjectFaults(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), Faults{})
	srv := httptest.NewServer(fi)
	defer srv.Close()
	defer fi.Close()
	defer close(release)

	resp, err := http.Get(srv.URL + "/big")
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Len(t, got, len(body))
	reqs := fi.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, Request{Method: "GET", Path: "/big", Query: reqs[0].Query, Status: http.StatusOK, Bytes: len(body), Done: true}, reqs[0])
}

// A client that has seen the injector close the connection finds the
// entry final too.
func TestEntryFinalOnceTheConnectionCloses(t *testing.T) {
	t.Parallel()
	for _, fault := range []Fault{FaultReset, FaultTruncate, FaultChunkedCut, FaultGzipCut} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{fault}}))
			defer s.Close()
			require.NotEqual(t, "200", outcome(t, s, "/api/dashboard"))
			r := s.Requests()[0]
			assert.True(t, r.Done, "final once the client saw the connection close")
			if fault != FaultReset {
				assert.Equal(t, http.StatusOK, r.Status)
				assert.Positive(t, r.Bytes)
			}
		})
	}
}
