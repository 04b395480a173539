// Package har is the HTTP Archive 1.2 format
// (http://www.softwareishard.com/blog/har-12-spec/) as gamedatatest's
// recordings use it: the types, written and read with encoding/json, and
// the conversions of headers, queries and bodies. A browser's developer
// tools open what it writes. The fields gamedatatest adds start with "_",
// as HAR allows custom fields to.
package har

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Version is the HAR version written, and the one read.
const Version = "1.2"

// File is a HAR document.
type File struct {
	Log Log `json:"log"`
}

// Log is a HAR log, with what gamedatatest adds: the version of its use
// of HAR, the SDK's version and the scrub rules the recording was made
// with.
type Log struct {
	Version       string  `json:"version"`
	Creator       Creator `json:"creator"`
	Entries       []Entry `json:"entries"`
	FormatVersion int     `json:"_formatVersion"`
	SDKVersion    string  `json:"_sdkVersion"`
	Scrub         Scrub   `json:"_scrub"`
}

// Creator names the program that wrote the log.
type Creator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Scrub says what was removed before the log was written, and which
// names that look like credentials were let through by the recorder's
// caller. A name ending in "*" is a prefix.
type Scrub struct {
	RemovedHeaders []string `json:"removedHeaders"`
	RemovedQuery   []string `json:"removedQuery"`
	AllowedHeaders []string `json:"allowedHeaders"`
	AllowedQuery   []string `json:"allowedQuery"`
}

// Entry is one request and its response, with gamedatatest's route
// template, match key and the entry's place among those of its key.
type Entry struct {
	StartedDateTime string   `json:"startedDateTime"`
	Time            float64  `json:"time"`
	Request         Request  `json:"request"`
	Response        Response `json:"response"`
	Cache           struct{} `json:"cache"`
	Timings         Timings  `json:"timings"`
	Route           string   `json:"_route"`
	MatchKey        string   `json:"_matchKey"`
	Sequence        int      `json:"_sequence"`
}

// Request is an entry's request. A recording holds no request body: the
// service is read with GET alone.
type Request struct {
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []NameValue `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	QueryString []NameValue `json:"queryString"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
}

// Response is an entry's response.
type Response struct {
	Status      int         `json:"status"`
	StatusText  string      `json:"statusText"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []NameValue `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	Content     Content     `json:"content"`
	RedirectURL string      `json:"redirectURL"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
}

// NameValue is a header, a query parameter or a cookie.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Content is a response body, decoded: its text when it is UTF-8, base64
// otherwise.
type Content struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	Encoding string `json:"encoding,omitempty"`
}

// Timings are an entry's phases, in milliseconds.
type Timings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// NewContent is body as HAR content. A body that is valid UTF-8 is kept as
// text, which JSON holds losslessly; any other is base64, since JSON would
// replace its invalid bytes.
func NewContent(body []byte, mimeType string) Content {
	c := Content{Size: len(body), MimeType: mimeType}
	if utf8.Valid(body) {
		c.Text = string(body)
	} else {
		c.Text, c.Encoding = base64.StdEncoding.EncodeToString(body), "base64"
	}
	return c
}

// Bytes is the body c holds.
func (c Content) Bytes() ([]byte, error) {
	if c.Encoding == "base64" {
		return base64.StdEncoding.DecodeString(c.Text)
	}
	return []byte(c.Text), nil
}

// Headers lists h sorted by name, each name's values in their order, so
// that the same headers are always written the same way.
func Headers(h http.Header) []NameValue {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	out := []NameValue{}
	for _, name := range names {
		for _, v := range h[name] {
			out = append(out, NameValue{Name: name, Value: v})
		}
	}
	return out
}

// Header is the http.Header of a list of headers.
func Header(list []NameValue) http.Header {
	h := http.Header{}
	for _, nv := range list {
		h.Add(nv.Name, nv.Value)
	}
	return h
}

// Query lists the parameters of rawQuery in the order they were sent,
// unescaped; a pair that does not unescape is listed as it is.
func Query(rawQuery string) []NameValue {
	out := []NameValue{}
	for pair := range strings.SplitSeq(rawQuery, "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		out = append(out, NameValue{Name: unescape(name), Value: unescape(value)})
	}
	return out
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}
