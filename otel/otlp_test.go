package gamedataotel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	gamedataotel "github.com/gamedata-go/gamedata/otel"
)

// receiver is an OTLP/HTTP trace receiver: it decodes each export, in
// OTLP's protobuf encoding, as a collector would.
type receiver struct {
	mu    sync.Mutex
	names []string
	attrs []map[string]string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want a protobuf POST to /v1/traces", http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(r.Body)
	var req collectortrace.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				attrs := map[string]string{"scope": ss.Scope.GetName()}
				for _, kv := range s.Attributes {
					attrs[kv.Key] = kv.Value.String()
				}
				rc.names = append(rc.names, s.Name)
				rc.attrs = append(rc.attrs, attrs)
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	b, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Write(b)
}

// Spans reach a collector through the OTLP/HTTP exporter.
func TestOTLPExport(t *testing.T) {
	rc := &receiver{}
	collector := httptest.NewServer(rc)
	t.Cleanup(collector.Close)
	twin := gamedatatest.NewServer()
	t.Cleanup(twin.Close)

	ctx := context.Background()
	exporter, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(collector.URL+"/v1/traces"))
	require.NoError(t, err)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	in, err := gamedataotel.New(gamedataotel.WithTracerProvider(tp))
	require.NoError(t, err)
	c, err := gamedata.NewClient(twin.URL, in.ClientOptions()...)
	require.NoError(t, err)
	_, err = c.Packages.Get(ctx, gamedata.KindGame, "1337")
	require.NoError(t, err)
	require.NoError(t, tp.Shutdown(ctx))

	rc.mu.Lock()
	defer rc.mu.Unlock()
	assert.Equal(t, []string{"GET /api/packages/{kind}/{ident}"}, rc.names)
	require.Len(t, rc.attrs, 1)
	assert.Equal(t, gamedataotel.ScopeName, rc.attrs[0]["scope"])
	assert.Contains(t, rc.attrs[0]["url.template"], "/api/packages/{kind}/{ident}")
	assert.Contains(t, rc.attrs[0]["gamedata.cache.status"], "miss")
}
