package peers

// The clients are generated from the twin's own OpenAPI document
// (gamedatatest/openapi.json, which the twin serves at /openapi.json) by
// the generators at pinned versions, and committed. oapi-codegen reads the
// document as it is; ogen reads two variants that internal/derive writes
// (its doc says what each changes and why). Generating needs the module
// proxy; run it from this directory with: go generate .

//go:generate go run ./internal/derive -openapi 3.1 ../gamedatatest/openapi.json openapi31.json
//go:generate go run ./internal/derive -openapi 3.0 ../gamedatatest/openapi.json openapi30.json
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 -config ogen31.yml -target internal/ogen31 -package ogen31 -clean openapi31.json
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 -config ogen30.yml -target internal/ogen30 -package ogen30 -clean openapi30.json
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi31.yml ../gamedatatest/openapi.json
