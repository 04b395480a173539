package exporter

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/prometheus/client_golang/prometheus"
)

// heldCollector holds every scrape that reaches it until release is
// closed, after saying so on arrived: the synchronization point that puts
// scrapes in flight and keeps them there.
type heldCollector struct{ arrived, release chan struct{} }

func (heldCollector) Describe(chan<- *prometheus.Desc) {}

func (c heldCollector) Collect(chan<- prometheus.Metric) {
	c.arrived <- struct{}{}
	<-c.release
}

// TestScrapesInFlightAreBounded holds maxScrapesInFlight scrapes inside
// the collection: the next one is answered 503 at once, without
// gathering, while /healthz still answers; once the held scrapes end, a
// scrape succeeds again.
func TestScrapesInFlightAreBounded(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	poll(t, e)
	held := heldCollector{arrived: make(chan struct{}, 2*maxScrapesInFlight), release: make(chan struct{})}
	e.Registry().MustRegister(held)
	h := e.Handler()
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}

	codes := make(chan int, maxScrapesInFlight)
	for range maxScrapesInFlight {
		go func() { codes <- get("/metrics").Code }()
	}
	for range maxScrapesInFlight {
		<-held.arrived
	}
	extra := make(chan *httptest.ResponseRecorder, 1)
	go func() { extra <- get("/metrics") }()
	select {
	case rec := <-extra:
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "concurrent requests") {
			t.Errorf("scrape %d while %d are in flight: %d %q, want 503", maxScrapesInFlight+1, maxScrapesInFlight, rec.Code, rec.Body)
		}
	case <-held.arrived:
		t.Errorf("scrape %d while %d are in flight reached the collection", maxScrapesInFlight+1, maxScrapesInFlight)
		close(held.release) // every scrape ends; their channels are buffered
		return
	}
	if rec := get("/healthz"); rec.Code != http.StatusOK {
		t.Errorf("/healthz while the scrapes are held: %d %q", rec.Code, rec.Body)
	}

	close(held.release)
	for range maxScrapesInFlight {
		if code := <-codes; code != http.StatusOK {
			t.Errorf("a held scrape ended %d, want 200", code)
		}
	}
	if rec := get("/metrics"); rec.Code != http.StatusOK {
		t.Errorf("a scrape after the held ones ended: %d, want 200", rec.Code)
	}
}
