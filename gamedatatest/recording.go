package gamedatatest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/gamedata-go/gamedata/internal/har"
	"github.com/gamedata-go/gamedata/internal/sanitize"
	"github.com/gamedata-go/gamedata/internal/version"
)

// Mode says what a Recording does with requests, by vcrpy's names.
type Mode string

// The modes.
const (
	// ModeNone replays the file and sends nothing: a request it holds no
	// answer for is a miss. The file must exist. The default.
	ModeNone Mode = "none"
	// ModeOnce records every request into a file that does not exist
	// yet, and is ModeNone once it does.
	ModeOnce Mode = "once"
	// ModeNewEpisodes replays the requests the file holds answers for,
	// and sends and records the others, which Save adds to the file.
	ModeNewEpisodes Mode = "new_episodes"
	// ModeAll sends and records every request, and Save writes the file
	// anew: what it held before is dropped.
	ModeAll Mode = "all"
)

// ParseMode returns the mode named s: "none", "once", "new_episodes" or
// "all"; "" is ModeNone.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return ModeNone, nil
	case ModeNone, ModeOnce, ModeNewEpisodes, ModeAll:
		return m, nil
	}
	return "", fmt.Errorf("gamedatatest: unknown recording mode %q: use none, once, new_episodes or all", sanitize.String(s))
}

// formatVersion is the version of what a recording adds to HAR (the "_"
// fields), written in its log. A recording of an older format is read as
// it is, never refused for its age: its match keys are computed again
// from its requests.
const formatVersion = 1

// Recording is a HAR 1.2 file of requests to the service and their
// answers, opened by OpenRecording: a test records what the service
// answers once, and replays it offline afterwards.
//
// Record through Transport, the http.RoundTripper of a client of the
// service:
//
//	client, err := gamedata.NewClient(baseURL, gamedata.WithHTTPClient(
//		&http.Client{Transport: rec.Transport(http.DefaultTransport)}))
//
// It is a transport rather than a gamedata.Middleware because this
// package cannot import the gamedata package (whose own tests import this
// one); under the client's retries and redirects, it sees every attempt
// as a middleware would. Replay through Transport too, or through a twin
// that serves the recording: NewServer(WithRecording(rec)), with faults,
// latency and a rate limit as any twin's.
//
// Before anything is kept, a recording scrubs each exchange: it removes
// the Authorization, Proxy-Authorization, Cookie, Set-Cookie, User-Agent,
// Date, Via, X-Forwarded-*, Content-Length and Content-Encoding headers,
// the hop-by-hop ones and the key, token, api_key and access_token query
// parameters, and replaces the values of the credentials among them and
// of the User-Agent, wherever the service echoes one, by REDACTED;
// ScrubHeaders and ScrubQuery add to these rules. Save refuses a
// recording that still holds a header or parameter whose name looks like
// a credential's, unless AllowHeaders or AllowQuery names it;
// OpenRecording refuses such a file.
// Bodies are stored decoded (gzip undone), as text, or base64 when they
// are not UTF-8; hosts are not stored.
//
// A request is matched by its method, its route template and path
// parameters, and its query normalized as the service normalizes it
// (parameters in any order, repeated filters in any order, a pageSize
// over 100 as 100, a missing page as 1), never by its headers; see
// Unmatched for what a miss gets. Its methods are safe for concurrent use.
type Recording struct {
	path  string
	mode  Mode
	rules scrubRules
	// offline is set when every request is replayed: ModeNone, or
	// ModeOnce with a file.
	offline bool

	mu sync.Mutex
	// replayed are the file's exchanges by key, what replay answers from,
	// and keys their keys, sorted, where a miss looks for the nearest.
	replayed map[string][]*exchange
	keys     []string
	// lastPage is, by the key of a directory's pages, the last page that
	// its recorded pages say there is.
	lastPage  map[string]int
	cursor    map[string]int // by key, the next exchange to replay
	added     []*exchange    // sent and recorded since the file was opened
	sent      map[string]int // by key, how many of added
	unmatched []string
	missed    map[string]bool
}

// OpenRecording opens the recording at path in mode m, with the default
// scrub rules and those opts add. It reads the file unless m is ModeAll,
// refusing one that is not HAR 1.2, that a newer gamedatatest wrote, or
// that holds a cookie or a header or parameter that looks like a
// credential and that opts do not allow (a *CredentialError). A file
// that does not exist is an error in ModeNone only, one that errors.Is
// takes for fs.ErrNotExist. Nothing is written before Save.
func OpenRecording(path string, m Mode, opts ...RecordingOption) (*Recording, error) {
	m, err := ParseMode(string(m)) // the zero Mode is ModeNone
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, errors.New("gamedatatest: OpenRecording: empty path: name the recording's file")
	}
	rules, err := newScrubRules(opts)
	if err != nil {
		return nil, err
	}
	r := &Recording{
		path: path, mode: m, rules: rules,
		replayed: map[string][]*exchange{}, lastPage: map[string]int{}, cursor: map[string]int{},
		sent: map[string]int{}, missed: map[string]bool{},
	}
	if m == ModeAll {
		return r, nil
	}
	f, err := har.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && m != ModeNone:
		return r, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("gamedatatest: recording %s: %w: record it first, in mode once", path, fs.ErrNotExist)
	case err != nil:
		return nil, fmt.Errorf("gamedatatest: recording %s: %w", path, err)
	case f.Log.FormatVersion > formatVersion:
		return nil, fmt.Errorf("gamedatatest: recording %s is of format %d, written by a newer gamedatatest (%s) than this one, which reads format %d: update github.com/gamedata-go/gamedata",
			path, f.Log.FormatVersion, sanitize.String(f.Log.SDKVersion), formatVersion)
	}
	r.offline = m == ModeNone || m == ModeOnce
	for i, e := range f.Log.Entries {
		x, err := rules.exchangeOf(e)
		if err != nil {
			return nil, fmt.Errorf("gamedatatest: recording %s, entry %d: %w", path, i, err)
		}
		r.replay(x)
	}
	for k, xs := range r.replayed {
		slices.SortStableFunc(xs, func(a, b *exchange) int { return a.seq - b.seq })
		r.keys = append(r.keys, k)
	}
	slices.Sort(r.keys)
	return r, nil
}

// replay adds x, read from the file, to what replay answers from, and
// learns the last page of a directory from it.
func (r *Recording) replay(x *exchange) {
	r.replayed[x.key] = append(r.replayed[x.key], x)
	if x.pages == "" || x.status != http.StatusOK {
		return
	}
	var env struct {
		Pagination struct {
			HasNext    *bool `json:"hasNext"`
			TotalPages int   `json:"totalPages"`
		} `json:"pagination"`
	}
	if json.Unmarshal(x.body, &env) != nil {
		return
	}
	last := env.Pagination.TotalPages
	if p := env.Pagination.HasNext; p != nil && !*p {
		last = x.page
	}
	if last > 0 {
		r.lastPage[x.pages] = last
	}
}

// Mode returns the recording's mode.
func (r *Recording) Mode() Mode { return r.mode }

// matchOf is the match of a request for u with method, under the
// recording's rules.
func (r *Recording) matchOf(method string, u *url.URL) match {
	return matchOf(method, u, r.rules.removesQuery, r.rules.hidesQuery)
}

// Unmatched returns the match keys of the requests the recording had no
// answer for, each once, in the order they were first asked. Such a
// request, to Transport or to a twin serving the recording, is answered
// 404 with a JSON body whose "error" names its match key and the nearest
// keys the recording holds.
func (r *Recording) Unmatched() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.unmatched)
}

// CheckMatched fails the test t with one error for each request the
// recording had no answer for; a test calls it when it is done with the
// recording, or with t.Cleanup.
func (r *Recording) CheckMatched(t interface {
	Helper()
	Errorf(format string, args ...any)
}) {
	t.Helper()
	for _, key := range r.Unmatched() {
		t.Errorf("gamedatatest: recording %s holds no answer for %s: record it in mode new_episodes", r.path, key)
	}
}

// Save writes what was recorded since the recording was opened to its
// file, whole or not at all (a temporary file renamed over it): in
// ModeNewEpisodes beside what the file held, in ModeAll in its place, in
// ModeOnce into the new file. It writes nothing when nothing was recorded
// (in ModeNone, in ModeOnce once the file exists, or when no request was
// sent), but in ModeAll. It refuses to write a header or query parameter
// whose name looks like a credential unless the recording allows it (a
// *CredentialError), and a response it could not decode; the error names
// it, never its value.
func (r *Recording) Save() error {
	xs, write := r.toSave()
	if !write {
		return nil
	}
	for _, x := range xs {
		if x.failure != nil {
			return fmt.Errorf("gamedatatest: save recording %s: %s: %w", r.path, x.at(), x.failure)
		}
	}
	xs = kept(xs)
	log := har.Log{
		Version:       har.Version,
		Creator:       har.Creator{Name: "gamedatatest", Version: version.Version},
		Entries:       make([]har.Entry, len(xs)),
		FormatVersion: formatVersion,
		SDKVersion:    version.Version,
		Scrub:         r.rules.har(),
	}
	for i, x := range xs {
		if where, name := x.leftover(&r.rules); name != "" {
			return fmt.Errorf("gamedatatest: save recording %s: %w", r.path, &CredentialError{Request: x.at(), Where: where, Name: name})
		}
		log.Entries[i] = x.entry(i)
	}
	if err := har.Write(r.path, &har.File{Log: log}); err != nil {
		return fmt.Errorf("gamedatatest: save recording: %w", err)
	}
	return nil
}

// toSave returns copies of the exchanges Save writes, those whose answer
// is whole, taken while none changes, and whether Save writes at all.
func (r *Recording) toSave() ([]*exchange, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	xs := slices.Clone(r.added)
	if r.mode == ModeNewEpisodes {
		for _, k := range r.keys {
			xs = append(xs, r.replayed[k]...)
		}
	}
	var out []*exchange
	for _, x := range xs {
		if x.done {
			c := *x
			c.header = x.header.Clone() // a 304 refreshes the copy's, not the one replay reads
			out = append(out, &c)
		}
	}
	return out, r.mode == ModeAll || len(r.added) > 0
}
