// Command derive writes the variants of the twin's OpenAPI 3.1 document
// that the generators read, where they cannot read the document as it is.
// go generate in the peers module runs it:
//
//	go run ./internal/derive -openapi 3.1 ../gamedatatest/openapi.json openapi31.json
//	go run ./internal/derive -openapi 3.0 ../gamedatatest/openapi.json openapi30.json
//
// The 3.1 variant changes one thing: a "const" without a "type" gets the
// type of its value (the server entry's kind, const "server", becomes a
// string). That says nothing new, a const admits one value, but ogen
// v1.24.0 writes Go that does not compile for an untyped const
// (e.Raw("server"), a string where it takes bytes).
//
// The 3.0 variant spells each 3.1 construct the nearest 3.0 way:
//
//   - "openapi": "3.1.0" becomes "3.0.3".
//   - A type list with "null", such as ["number", "null"], becomes the
//     other type and "nullable": true.
//   - "oneOf" of one schema and {"type": "null"} becomes "allOf" of the
//     schema and "nullable": true.
//   - "prefixItems", a tuple, becomes "items", one schema for every
//     element: a nullable number when every element is a number, an
//     integer, a numeric enum or null (the activity point), else any
//     value; minItems and maxItems stay. The order of the elements is
//     then only in the description.
//   - "const" is dropped and its type kept. 3.0's nearest spelling, an
//     enum of one value, makes ogen unable to tell the dashboard's
//     package entries from its server entries (both have a string "kind",
//     one closed, one open) and skip the dashboard; without it ogen tells
//     them apart by the members only one of them has (ident, id), as it
//     does with the 3.1 variant's typed const.
//   - A schema's "examples" list becomes "example", its first element.
//
// Either output is indented JSON with members in sorted order.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	version := flag.String("openapi", "", "the variant to write: 3.1 or 3.0")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: derive -openapi 3.1|3.0 IN.json OUT.json")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 || (*version != "3.1" && *version != "3.0") {
		flag.Usage()
		os.Exit(2)
	}
	in, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		var out []byte
		if out, err = derive(in, *version); err == nil {
			err = os.WriteFile(flag.Arg(1), out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "derive:", err)
		os.Exit(1)
	}
}

// derive returns the variant ("3.1" or "3.0") of the 3.1 document doc.
func derive(doc []byte, version string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("reading the document: %w", err)
	}
	if v, _ := root["openapi"].(string); v != "3.1.0" {
		return nil, fmt.Errorf("the document is OpenAPI %q, not 3.1.0", v)
	}
	rules := typeConst
	if version == "3.0" {
		root["openapi"] = "3.0.3"
		rules = to30
	}
	if err := rewrite(root, rules); err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(root, "", " ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// rewrite applies rules to every object under v, in place, parents first.
func rewrite(v any, rules func(map[string]any) error) error {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if err := rewrite(e, rules); err != nil {
				return err
			}
		}
	case map[string]any:
		if err := rules(v); err != nil {
			return err
		}
		for k, e := range v {
			if named, ok := e.(map[string]any); ok && nameMaps[k] {
				// Its members are names, such as a property named "const",
				// and only their values are schemas.
				for _, s := range named {
					if err := rewrite(s, rules); err != nil {
						return err
					}
				}
				continue
			}
			if err := rewrite(e, rules); err != nil {
				return err
			}
		}
	}
	return nil
}

// nameMaps are the members whose value maps names to schemas.
var nameMaps = map[string]bool{"properties": true, "patternProperties": true, "schemas": true, "$defs": true}

// typeConst gives an untyped const the type of its value.
func typeConst(s map[string]any) error {
	c, ok := s["const"]
	if !ok {
		return nil
	}
	if _, typed := s["type"]; typed {
		return nil
	}
	switch c.(type) {
	case string:
		s["type"] = "string"
	case json.Number:
		s["type"] = "number"
	case bool:
		s["type"] = "boolean"
	default:
		return fmt.Errorf("const %v: no type to give it", c)
	}
	return nil
}

// to30 applies the 3.0 rules to one object, which may be a schema, in
// the order the command's doc lists them.
func to30(s map[string]any) error {
	for _, rule := range []func(map[string]any) error{nullableType, nullableOneOf, tupleItems, untypedConst, firstExample} {
		if err := rule(s); err != nil {
			return err
		}
	}
	return nil
}

// nullableType turns a type list with "null" into the other type and
// "nullable": true.
func nullableType(s map[string]any) error {
	types, ok := s["type"].([]any)
	if !ok {
		return nil
	}
	var kept []any
	for _, t := range types {
		if t == "null" {
			s["nullable"] = true
		} else {
			kept = append(kept, t)
		}
	}
	if len(kept) != 1 {
		return fmt.Errorf("type %v: 3.0 has no type list", types)
	}
	s["type"] = kept[0]
	return nil
}

// nullableOneOf turns "oneOf" of one schema and {"type": "null"} into
// "allOf" of the schema and "nullable": true.
func nullableOneOf(s map[string]any) error {
	alts, ok := s["oneOf"].([]any)
	if !ok {
		return nil
	}
	var kept []any
	for _, a := range alts {
		if m, ok := a.(map[string]any); !ok || len(m) != 1 || m["type"] != "null" {
			kept = append(kept, a)
		}
	}
	if len(kept) == len(alts)-1 && len(kept) == 1 {
		delete(s, "oneOf")
		s["allOf"] = kept
		s["nullable"] = true
	} else if len(kept) != len(alts) {
		return fmt.Errorf("oneOf %v: null beside more than one schema", alts)
	}
	return nil
}

// tupleItems turns "prefixItems" into "items": a nullable number when
// every element is numeric, else any value.
func tupleItems(s map[string]any) error {
	tuple, ok := s["prefixItems"].([]any)
	if !ok {
		return nil
	}
	delete(s, "prefixItems")
	items := map[string]any{}
	if numeric(tuple) {
		items = map[string]any{"type": "number", "nullable": true}
	}
	s["items"] = items
	return nil
}

// untypedConst drops "const", keeping its type.
func untypedConst(s map[string]any) error {
	if _, ok := s["const"]; !ok {
		return nil
	}
	if err := typeConst(s); err != nil {
		return err
	}
	delete(s, "const")
	return nil
}

// firstExample turns an "examples" list into "example", its first
// element.
func firstExample(s map[string]any) error {
	if ex, ok := s["examples"].([]any); ok {
		delete(s, "examples")
		if len(ex) > 0 {
			s["example"] = ex[0]
		}
	}
	return nil
}

// numeric tells whether every element schema of a tuple admits only
// numbers and null.
func numeric(tuple []any) bool {
	for _, e := range tuple {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if enum, ok := m["enum"].([]any); ok {
			for _, v := range enum {
				if _, ok := v.(json.Number); !ok {
					return false
				}
			}
			continue
		}
		types, ok := m["type"].([]any)
		if !ok {
			types = []any{m["type"]}
		}
		for _, t := range types {
			if t != "integer" && t != "number" && t != "null" {
				return false
			}
		}
	}
	return true
}
