package gamedatatest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

// answer is the recording's answer to req, whose match is m (which the
// caller has computed already). The exchanges of m's key answer in the
// order they were recorded, and the last one again after them (a poll
// goes on getting the latest answer). A recorded 200, or the 200 a
// recorded 304 revalidated, answers a conditional request that names its
// ETag, or that its Last-Modified is not after, with a 304. A directory
// page past the last page its recorded pages say there is is redirected
// to that page, as the service does. Any other request is a miss: a 404
// naming its match key and the nearest recorded ones, listed by
// Unmatched.
func (r *Recording) answer(req *http.Request, m match) reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	xs := r.replayed[m.key]
	if len(xs) == 0 {
		if last, ok := r.lastPage[m.pages]; ok && m.pages != "" && m.page > last {
			return directory(req, catalog.Page{Asked: m.page, Last: last})
		}
		if !r.missed[m.key] {
			r.missed[m.key] = true
			r.unmatched = append(r.unmatched, m.key)
		}
		near := nearest(m.key, r.keys, 3)
		return jsonReply(http.StatusNotFound, missJSON{
			// First what an error message clipped to its start still says.
			Error:    "recording miss: " + m.key + ", which the recording holds no answer for (nearest: " + strings.Join(near, ", ") + "): record it in mode new_episodes",
			MatchKey: m.key,
			Nearest:  near,
		})
	}
	i := r.cursor[m.key]
	if i < len(xs)-1 {
		r.cursor[m.key] = i + 1
	}
	x := xs[i]
	if x.status == http.StatusNotModified {
		// What a 304 revalidated is the 200 before it: the request gets
		// that, in full unless its validators name it.
		for _, before := range slices.Backward(xs[:i]) {
			if before.status == http.StatusOK {
				x = before
				break
			}
		}
	}
	if x.status == http.StatusOK && revalidates(req, x.header) {
		return reply{status: http.StatusNotModified, header: x.header.Clone()}
	}
	return reply{status: x.status, header: x.header.Clone(), body: x.body}
}

// revalidates reports whether req's validators name the representation
// whose headers are h: If-None-Match its ETag, or, without If-None-Match,
// If-Modified-Since a time its Last-Modified is not after.
func revalidates(req *http.Request, h http.Header) bool {
	if len(req.Header.Values("If-None-Match")) > 0 {
		etag := h.Get("ETag")
		return etag != "" && notModified(req, etag, time.Time{})
	}
	modified, err := http.ParseTime(h.Get("Last-Modified"))
	return err == nil && notModified(req, "", modified)
}

// missJSON is the body of a miss.
type missJSON struct {
	Error    string   `json:"error"`
	MatchKey string   `json:"matchKey"`
	Nearest  []string `json:"nearest"`
}
