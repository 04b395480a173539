package gamedataotel_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	gamedataotel "github.com/gamedata-go/gamedata/otel"
)

// docs/sdk.md, "OpenTelemetry": a client instrumented with the global
// providers, which record nothing until a program installs its own.
func ExampleNew() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	baseURL := twin.URL

	in, err := gamedataotel.New() // the global tracer, meter and propagator unless told otherwise
	if err != nil {
		log.Fatal(err)
	}
	client, err := gamedata.NewClient(baseURL, in.ClientOptions()...)

	if err != nil {
		log.Fatal(err)
	}
	pkg, err := client.Packages.Get(context.Background(), gamedata.KindGame, "1337")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pkg.Kind, pkg.Ident)
	// Output: game 1337
}
