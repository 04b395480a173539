package gamedatatest

import (
	_ "embed"
	"net/http"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

//go:embed openapi.json
var openAPIDocument []byte

// openAPIModified is the Last-Modified of the document, which does not
// change with the data: the catalogue's reference time.
var openAPIModified = time.Date(2026, time.November, 20, 10, 0, 0, 0, time.UTC)

// endpoint is how the twin answers one path of the service's route table,
// internal/manifest: its family, and its answer given the values of the
// path's parameters.
type endpoint struct {
	family Family
	serve  func(s *catalog.Snapshot, r *http.Request, args []string) reply
}

// endpoints answer the paths of manifest.Endpoints, by path; a test checks
// that every one is answered.
var endpoints = map[string]endpoint{
	"/api/dashboard": {FamilyDashboard, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return directory(r, s.Dashboard(r.URL.Query()))
	}},
	"/api/organizations": {FamilyOrganizations, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return directory(r, s.Organizations(r.URL.Query()))
	}},
	"/api/search": {FamilySearch, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.Search(r.URL.Query().Get("q")))
	}},
	"/api/activity-history": {FamilyActivity, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.Activity(r.URL.Query().Get("range")))
	}},
	"/api/packages/{kind}/{ident}": {FamilyPackage, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Package(a[0], a[1]))
	}},
	"/api/servers/{id}": {FamilyServer, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Server(a[0]))
	}},
	"/api/organizations/{ident}": {FamilyOrganization, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Organization(a[0]))
	}},
	"/api/analytics/packages": {FamilyAnalyticsSearch, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.AnalyticsSearch(r.URL.Query().Get("q")))
	}},
	"/api/analytics/packages/{kind}/{ident}": {FamilyAnalyticsPackage, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.PackageReport(a[0], a[1]))
	}},
	"/api/analytics/organizations/{ident}": {FamilyAnalyticsOrganization, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.OrganizationReport(a[0]))
	}},
	"/openapi.json": {FamilyOpenAPI, func(*catalog.Snapshot, *http.Request, []string) reply {
		return reply{status: http.StatusOK, body: openAPIDocument, modified: openAPIModified}
	}},
}

// found answers body, or 404 when there is none.
func found(body []byte) reply {
	if body == nil {
		return notFound
	}
	return reply{status: http.StatusOK, body: body}
}
