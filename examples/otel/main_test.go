package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The program prints two spans named by the route template, one retried
// and one a cache hit, then the metrics with the duration histogram.
func TestRunPrintsSpansAndMetrics(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(&out)
	var docs []map[string]any
	for d.More() {
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			t.Fatalf("output is not a stream of JSON documents: %v", err)
		}
		docs = append(docs, doc)
	}
	if len(docs) != 3 {
		t.Fatalf("%d JSON documents, want 2 spans and the metrics", len(docs))
	}
	for i, want := range []string{`"miss"`, `"hit"`} {
		b, _ := json.Marshal(docs[i])
		if docs[i]["Name"] != "GET /api/packages/{kind}/{ident}" || !strings.Contains(string(b), want) {
			t.Errorf("span %d: %s, want the route template and cache status %s", i, b, want)
		}
	}
	if b, _ := json.Marshal(docs[2]); !strings.Contains(string(b), `"http.client.request.duration"`) {
		t.Errorf("metrics: %s, want http.client.request.duration", b)
	}
}
