// Command otel shows the spans and metrics of github.com/gamedata-go/gamedata/otel:
// it starts an in-process twin of the service (gamedatatest) that fails
// the first request of every URL once with a 503, reads one package twice
// (a call retried once, then a fresh cache hit), and prints the two spans
// and the metrics as JSON, with OpenTelemetry's stdout exporters. It runs
// offline:
//
//	go run ./examples/otel
//
// It is a module of its own, so that neither the library nor its
// examples depend on OpenTelemetry.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"time"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	gamedataotel "github.com/gamedata-go/gamedata/otel"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "otel:", err)
		os.Exit(1)
	}
}

// run is the whole program, writing its spans and metrics to out.
func run(ctx context.Context, out io.Writer) error {
	twin := gamedatatest.NewServer(gamedatatest.WithNow(time.Now()), gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=60"}))
	defer twin.Close()
	faults := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	srv := httptest.NewServer(faults)
	defer srv.Close()
	defer faults.Close()

	spans, err := stdouttrace.New(stdouttrace.WithWriter(out), stdouttrace.WithPrettyPrint())
	if err != nil {
		return err
	}
	metrics, err := stdoutmetric.New(stdoutmetric.WithWriter(out), stdoutmetric.WithPrettyPrint())
	if err != nil {
		return err
	}
	tracers := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	meters := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))

	in, err := gamedataotel.New(
		gamedataotel.WithTracerProvider(tracers),
		gamedataotel.WithMeterProvider(meters),
		gamedataotel.WithPropagator(propagation.TraceContext{}))
	if err != nil {
		return err
	}
	client, err := gamedata.NewClient(srv.URL, append(in.ClientOptions(), gamedata.WithBackoff(time.Millisecond, 10*time.Millisecond))...)
	if err != nil {
		return err
	}
	for range 2 {
		if _, err := client.Packages.Get(ctx, gamedata.KindGame, "1337"); err != nil {
			return err
		}
	}

	if err := tracers.Shutdown(ctx); err != nil {
		return err
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return err
	}
	if err := metrics.Export(ctx, &rm); err != nil {
		return err
	}
	return meters.Shutdown(ctx)
}
