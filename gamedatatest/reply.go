package gamedatatest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

// reply is a whole response, built before anything is written so that a
// fault can truncate the real body.
type reply struct {
	status   int
	header   http.Header
	body     []byte
	family   Family    // of the endpoint that answered; "" for none
	modified time.Time // Last-Modified of the data answered from
}

func jsonReply(status int, v any) reply { return reply{status: status, body: catalog.Encode(v)} }

func errorReply(status int, msg string) reply {
	return jsonReply(status, errorJSON{Error: msg})
}

var notFound = errorReply(http.StatusNotFound, "not found")

// write sends a whole reply; a 304 has headers only.
func (rep reply) write(w http.ResponseWriter) {
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	if rep.status == http.StatusNotModified {
		w.WriteHeader(rep.status)
		return
	}
	if w.Header().Get("Content-Type") == "" { // a recorded answer says its own
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
	w.WriteHeader(rep.status)
	w.Write(rep.body)
}

// errorJSON is the body of every error: 404, 405, 429 and an injected
// status fault.
type errorJSON struct {
	Error string `json:"error"`
}

// redirectJSON is the body of a 302 from a page beyond a directory's last
// to the last.
type redirectJSON struct {
	Error    string `json:"error"` // "page out of range"
	LastPage int    `json:"lastPage"`
	Location string `json:"location"` // the Location header
	Page     int    `json:"page"`     // the page asked for
}
