package gamedata

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/internal/iso8601"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// HistoryEntry is one entry of an analytics report's history.
type HistoryEntry struct {
	// CapturedAt is when the entry was captured.
	CapturedAt time.Time
	// PartialCoverage is true when the entry's totals are sums over the
	// games that were recorded, with others missing: its metrics are then
	// lower bounds, never complete totals.
	PartialCoverage bool
	// Fields holds every member of the entry, its metrics among them: read
	// them with Fields.Metric, where null means unavailable.
	Fields
}

// PackageReport is a complete analytics report for one package: the
// package's own history, day by day, and its summaries over ranges such
// as "7d". Only its identifiers, its history and the partialCoverage of
// entries and summaries are documented; everything else is in Fields.
type PackageReport struct {
	Kind, Ident string
	History     []HistoryEntry
	Summaries   Summaries
	// Fields holds the whole report as the service sent it.
	Fields
}

// OrganizationReport is a complete analytics report for one organization,
// with its history and range summaries. Only its ident, its history and
// the partialCoverage of entries and summaries are documented; everything
// else is in Fields.
type OrganizationReport struct {
	Ident     string
	History   []HistoryEntry
	Summaries Summaries
	// Fields holds the whole report as the service sent it.
	Fields
}

// AnalyticsSearchResults are the games and organizations that match an
// analytics search, read from the members "packages" and "organizations";
// a list the service leaves out is nil.
type AnalyticsSearchResults struct {
	Packages      []Package
	Organizations []Organization
	// Fields holds the whole response as the service sent it.
	Fields
}

// AnalyticsService searches and reads analytics reports. Use it through
// Client.Analytics.
type AnalyticsService service

// Search searches games and organizations for analytics (GET
// /api/analytics/packages). A nil opts, or an empty Query, sends no q.
func (s *AnalyticsService) Search(ctx context.Context, opts *SearchOptions, callOpts ...CallOption) (*AnalyticsSearchResults, error) {
	r, err := (*service)(s).search(ctx, callOpts, opts, false, manifest.AnalyticsSearch)
	if err != nil {
		return nil, err
	}
	return &AnalyticsSearchResults{Packages: r.Packages, Organizations: r.Organizations, Fields: r.Fields}, nil
}

// Package reads the complete analytics report for one package (GET
// /api/analytics/packages/{kind}/{ident}). When the report leaves out its
// kind or ident, those asked for are filled in.
func (s *AnalyticsService) Package(ctx context.Context, kind, ident string, opts ...CallOption) (*PackageReport, error) {
	if err := checkSegments([]string{"package kind", "package ident"}, kind, ident); err != nil {
		return nil, err
	}
	var r PackageReport
	err := (*service)(s).get(ctx, opts, manifest.AnalyticsPackage, nil, func(b []byte) (err error) {
		r, err = decodePackageReport(b, kind, ident)
		return err
	}, kind, ident)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// decodePackageReport decodes a package report; kind and ident stand in
// for those it leaves out.
func decodePackageReport(b []byte, kind, ident string) (PackageReport, error) {
	f, members, ids, err := decodeIndexed(b, "kind", "ident")
	if err != nil {
		return PackageReport{}, fmt.Errorf("package report: %w", err)
	}
	r := PackageReport{Kind: cmp.Or(ids[0], kind), Ident: cmp.Or(ids[1], ident), Fields: f}
	if r.History, r.Summaries, err = decodeReport(members); err != nil {
		return PackageReport{}, err
	}
	return r, nil
}

// Organization reads the complete analytics report for one organization
// (GET /api/analytics/organizations/{ident}). When the report leaves out
// its ident, the one asked for is filled in.
func (s *AnalyticsService) Organization(ctx context.Context, ident string, opts ...CallOption) (*OrganizationReport, error) {
	if err := checkSegments([]string{"organization ident"}, ident); err != nil {
		return nil, err
	}
	var r OrganizationReport
	err := (*service)(s).get(ctx, opts, manifest.AnalyticsOrganization, nil, func(b []byte) (err error) {
		r, err = decodeOrganizationReport(b, ident)
		return err
	}, ident)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// decodeOrganizationReport decodes an organization report; ident stands
// in for the one it leaves out.
func decodeOrganizationReport(b []byte, ident string) (OrganizationReport, error) {
	f, members, ids, err := decodeIndexed(b, "ident")
	if err != nil {
		return OrganizationReport{}, fmt.Errorf("organization report: %w", err)
	}
	r := OrganizationReport{Ident: cmp.Or(ids[0], ident), Fields: f}
	if r.History, r.Summaries, err = decodeReport(members); err != nil {
		return OrganizationReport{}, err
	}
	return r, nil
}

// decodeReport decodes the history and the range summaries of a report,
// whose members are report.
func decodeReport(report map[string]json.RawMessage) ([]HistoryEntry, Summaries, error) {
	history, err := decodeHistory(report)
	if err != nil {
		return nil, nil, err
	}
	summaries, err := decodeSummaries(report)
	return history, summaries, err
}

// decodeHistory finds and decodes a report's history. The service says
// history is given as objects with capturedAt but not under which member,
// so the rule is: the member named "history"; failing that, the only
// top-level array whose first element is an object with capturedAt. A
// report with no such array has no history; one with several and none
// named history is an error, never a guess.
func decodeHistory(report map[string]json.RawMessage) ([]HistoryEntry, error) {
	if _, ok := report["history"]; ok {
		return decodeList(report, "history", decodeHistoryEntry)
	}
	var candidates []string
	for n, v := range report {
		if looksLikeHistory(v) {
			candidates = append(candidates, n)
		}
	}
	switch len(candidates) {
	case 0:
		return nil, nil
	case 1:
		// The service chose this name: errors quote it.
		return decodeArray(report[candidates[0]], strconv.Quote(candidates[0]), decodeHistoryEntry)
	}
	slices.Sort(candidates)
	return nil, &DecodeError{Err: fmt.Errorf("report has several histories (%s) and none is named history", quotedNames(candidates))}
}

// looksLikeHistory reports whether v, a valid value, is an array whose
// first element is an object with a capturedAt member. Only the first
// element is read.
func looksLikeHistory(v []byte) bool {
	s := jsonscan.New(v)
	if more, err := s.Open('['); err != nil || !more {
		return false
	}
	first, err := s.Value()
	if err != nil || first[0] != '{' {
		return false
	}
	_, ok := jsonscan.Lookup(first, "capturedAt")
	return ok
}

func decodeHistoryEntry(raw []byte) (HistoryEntry, error) {
	f, members, err := decodeFields(raw)
	if err != nil {
		return HistoryEntry{}, err
	}
	h := HistoryEntry{Fields: f}
	capturedAt, ok := members["capturedAt"]
	switch {
	case !ok:
		return HistoryEntry{}, errors.New("capturedAt is missing")
	case capturedAt[0] != '"':
		return HistoryEntry{}, fmt.Errorf("capturedAt is %s, want an ISO 8601 string", jsonscan.Clip(capturedAt))
	}
	text, _ := f.Text("capturedAt")
	if h.CapturedAt, err = iso8601.Parse(text.Unsanitized()); err != nil {
		return HistoryEntry{}, fmt.Errorf("capturedAt: %w", err)
	}
	if h.PartialCoverage, err = partialCoverage(members); err != nil {
		return HistoryEntry{}, err
	}
	return h, nil
}
