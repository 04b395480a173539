package gamedata

import (
	"encoding/json"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// MarshalJSON writes the report as the service sent it, with Kind and
// Ident set in it when it did not hold them (they were filled in from the
// request, or changed). A report built in Go is written from Kind, Ident,
// History and Summaries (as "history" and "summary", each left out when
// nil), the shape UnmarshalJSON reads.
func (r PackageReport) MarshalJSON() ([]byte, error) {
	return marshalReport(r.Fields, []string{"kind", r.Kind, "ident", r.Ident}, r.History, r.Summaries)
}

// UnmarshalJSON decodes a report as Client.Analytics.Package does. Null
// leaves r as it is.
func (r *PackageReport) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, func(b []byte) (PackageReport, error) { return decodePackageReport(b, "", "") }, r)
}

// MarshalJSON writes the report as the service sent it, with Ident set in
// it when it did not hold it (it was filled in from the request, or
// changed). A report built in Go is written from Ident, History and
// Summaries (as "history" and "summary", each left out when nil), the
// shape UnmarshalJSON reads.
func (r OrganizationReport) MarshalJSON() ([]byte, error) {
	return marshalReport(r.Fields, []string{"ident", r.Ident}, r.History, r.Summaries)
}

// UnmarshalJSON decodes a report as Client.Analytics.Organization does.
// Null leaves r as it is.
func (r *OrganizationReport) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, func(b []byte) (OrganizationReport, error) { return decodeOrganizationReport(b, "") }, r)
}

// marshalReport writes a report: decoded, as sent with its identifiers
// ids (name, value pairs) set; built in Go, from ids, history and
// summaries.
func marshalReport(f Fields, ids []string, history []HistoryEntry, summaries Summaries) ([]byte, error) {
	if f.raw != nil {
		return marshalRecord(f, ids...)
	}
	v := map[string]any{}
	for i := 0; i+1 < len(ids); i += 2 {
		if ids[i+1] != "" {
			v[ids[i]] = ids[i+1]
		}
	}
	if history != nil {
		v["history"] = history
	}
	if summaries != nil {
		v["summary"] = summaries
	}
	return json.Marshal(v)
}

// MarshalJSON writes the entry as the service sent it. An entry built in
// Go is written from CapturedAt and PartialCoverage.
func (h HistoryEntry) MarshalJSON() ([]byte, error) {
	if h.raw != nil {
		return h.raw, nil
	}
	return json.Marshal(map[string]any{
		"capturedAt":      h.CapturedAt.Format(time.RFC3339Nano),
		"partialCoverage": h.PartialCoverage,
	})
}

// UnmarshalJSON decodes a history entry, which must have a capturedAt.
// Null leaves h as it is.
func (h *HistoryEntry) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, decodeHistoryEntry, h)
}

// MarshalJSON writes the summary as the service sent it, with "range" set
// to Range when it did not hold it: a summary sent in an object keyed by
// range names its range by its key. A summary built in Go is written from
// Range and PartialCoverage.
func (s RangeSummary) MarshalJSON() ([]byte, error) {
	if s.raw == nil {
		return json.Marshal(map[string]any{"range": s.Range, "partialCoverage": s.PartialCoverage})
	}
	if sent, ok := s.Text("range"); ok && sent.Unsanitized() == s.Range {
		return s.raw, nil
	}
	return jsonscan.SetMembers(s.raw, []jsonscan.Member{stringMember("range", s.Range)})
}

// UnmarshalJSON decodes a summary that names its range in a string member
// "range", as MarshalJSON writes it. Null leaves s as it is.
func (s *RangeSummary) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, func(b []byte) (RangeSummary, error) { return decodeSummary("", b) }, s)
}
