package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name, version, in, want string
	}{
		{"3.1 types an untyped const", "3.1",
			`{"const":"server"}`, `{"const":"server","type":"string"}`},
		{"3.1 leaves a typed const", "3.1",
			`{"const":"server","type":"string"}`, `{"const":"server","type":"string"}`},
		{"3.1 leaves type lists", "3.1",
			`{"type":["number","null"]}`, `{"type":["number","null"]}`},
		{"3.0 drops a const and keeps its type", "3.0",
			`{"const":"server"}`, `{"type":"string"}`},
		{"3.0 makes a type list with null nullable", "3.0",
			`{"type":["number","null"]}`, `{"nullable":true,"type":"number"}`},
		{"3.0 makes oneOf a schema or null a nullable allOf", "3.0",
			`{"oneOf":[{"$ref":"#/r"},{"type":"null"}]}`, `{"allOf":[{"$ref":"#/r"}],"nullable":true}`},
		{"3.0 leaves oneOf without null", "3.0",
			`{"oneOf":[{"$ref":"#/a"},{"$ref":"#/b"}]}`, `{"oneOf":[{"$ref":"#/a"},{"$ref":"#/b"}]}`},
		{"3.0 makes a numeric tuple nullable numbers", "3.0",
			`{"type":"array","maxItems":3,"prefixItems":[{"type":"integer"},{"type":["number","null"]},{"enum":[0,1]}]}`,
			`{"items":{"nullable":true,"type":"number"},"maxItems":3,"type":"array"}`},
		{"3.0 makes another tuple any values", "3.0",
			`{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}]}`,
			`{"items":{},"type":"array"}`},
		{"3.0 keeps the first of a schema's examples", "3.0",
			`{"type":"string","examples":["a","b"]}`, `{"example":"a","type":"string"}`},
		{"3.0 leaves a parameter's named examples", "3.0",
			`{"examples":{"one":{"value":1}}}`, `{"examples":{"one":{"value":1}}}`},
		{"a property named const is a name", "3.0",
			`{"type":"object","properties":{"const":{"type":"string"}}}`,
			`{"properties":{"const":{"type":"string"}},"type":"object"}`},
		{"nested schemas", "3.0",
			`{"properties":{"a":{"items":{"type":["integer","null"]}}}}`,
			`{"properties":{"a":{"items":{"nullable":true,"type":"integer"}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := `{"openapi":"3.1.0","components":{"schemas":{"S":` + tc.in + `}}}`
			out, err := derive([]byte(in), tc.version)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Components struct{ Schemas map[string]json.RawMessage }
			}
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Compact(&got, doc.Components.Schemas["S"]); err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want {
				t.Errorf("got  %s\nwant %s", got.String(), tc.want)
			}
		})
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct{ name, doc string }{
		{"not JSON", `{`},
		{"not 3.1", `{"openapi":"3.0.3"}`},
		{"a type list of two types", `{"openapi":"3.1.0","components":{"schemas":{"S":{"type":["string","integer"]}}}}`},
		{"null beside two schemas", `{"openapi":"3.1.0","components":{"schemas":{"S":{"oneOf":[{"$ref":"#/a"},{"$ref":"#/b"},{"type":"null"}]}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := derive([]byte(tc.doc), "3.0"); err == nil {
				t.Error("derived, want an error")
			}
		})
	}
}

// TestCommittedVariants fails when the twin's document (the file the twin
// embeds and serves) changed and the variants the ogen clients were
// generated from were not derived again: run go generate in the peers
// module (the generators need the module proxy).
func TestCommittedVariants(t *testing.T) {
	served, err := os.ReadFile("../../../gamedatatest/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct{ version, file string }{{"3.1", "../../openapi31.json"}, {"3.0", "../../openapi30.json"}} {
		want, err := derive(served, v.version)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(v.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the %s variant of the twin's document: run go generate in the peers module", v.file, v.version)
		}
	}
}
