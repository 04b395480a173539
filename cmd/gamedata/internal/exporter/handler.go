package exporter

import (
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// maxScrapesInFlight bounds the scrapes of /metrics served at once; the
// next one is answered 503 Service Unavailable at once. A Prometheus
// server scrapes one target at a time, so 4 leaves room for a pair of
// servers, a promtool and a person with curl.
const maxScrapesInFlight = 4

// Handler serves /metrics (the last poll, in the Prometheus exposition
// format; maxScrapesInFlight at once, 503 beyond), /healthz and, at /, a
// page that says what is exported. Each call makes a handler with a
// bound of its own.
func (e *Exporter) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(e.registry, promhttp.HandlerOpts{
		ErrorLog:      promLogger{e.log},
		ErrorHandling: promhttp.ContinueOnError,
		// A scrape holds the whole exposition in memory while it is
		// written: the bound keeps memory flat however many scrapers come
		// at once, and tells the extra ones to try again.
		MaxRequestsInFlight: maxScrapesInFlight,
	}))
	mux.HandleFunc("GET /healthz", e.healthz)
	mux.HandleFunc("GET /{$}", e.index)
	return mux
}

// healthz answers 200 while the last poll that succeeded in full is at
// most staleIntervals intervals old, counted from its end, and 503 before
// the first one and after. What that poll read, counted from when it was
// read, is no younger, so none of it outlives a 200.
func (e *Exporter) healthz(w http.ResponseWriter, _ *http.Request) {
	h := e.healthNow()
	last := h.lastSuccess
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	bound := staleIntervals * e.cfg.Every
	switch age := e.cfg.clock().Sub(h.succeeded); {
	case last.IsZero():
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "no poll of the service has succeeded yet")
	case age > bound:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "the last poll that succeeded started at %s, more than %v ago\n", last.UTC().Format(time.RFC3339), bound)
	default:
		fmt.Fprintf(w, "ok: the last poll that succeeded started at %s\n", last.UTC().Format(time.RFC3339))
	}
}

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>gamedata exporter</title></head>
<body>
<h1>gamedata exporter</h1>
<p>Player counts of the game platform's data service, polled every {{.Every}}
(never on a scrape) through a client whose cache turns an unchanged page
into a 304. Polled: {{range $i, $s := .Sources}}{{if $i}}; {{end}}{{$s}}{{end}}.</p>
<p><a href="/metrics">/metrics</a> · <a href="/healthz">/healthz</a>
(200 while the last poll that succeeded is at most {{.Stale}} old)</p>
<p>A null the service sends is an absent sample, never 0. Labels from the
service are sanitized and cut to {{.MaxLabel}} characters.</p>
<table>
<tr><th>metric</th><th>type</th><th>labels</th><th>help</th></tr>
{{range .Families}}<tr><td><code>{{.Name}}</code></td><td>{{.Type}}</td><td>{{.Labels}}</td><td>{{.Help}}</td></tr>
{{end}}</table>
</body></html>
`))

type indexRow struct{ Name, Type, Labels, Help string }

// index lists every family, those derived from members as the last poll
// found them.
func (e *Exporter) index(w http.ResponseWriter, _ *http.Request) {
	fams := append(append([]*family(nil), fixedFamilies...), e.current().members...)
	rows := make([]indexRow, len(fams))
	for i, f := range fams {
		rows[i] = indexRow{Name: f.name, Type: f.kindName(), Labels: strings.Join(f.labels, ", "), Help: f.help}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := indexPage.Execute(w, map[string]any{
		"Every": e.cfg.Every, "Stale": staleIntervals * e.cfg.Every, "Sources": e.sourceNames(),
		"MaxLabel": maxLabelRunes, "Families": rows,
	})
	if err != nil {
		e.log.Warn("writing the index page", "error", err)
	}
}

// promLogger passes promhttp's errors to the exporter's log.
type promLogger struct{ log *slog.Logger }

func (l promLogger) Println(v ...any) { l.log.Warn("serving /metrics: " + fmt.Sprint(v...)) }
