package gamedatatest

import (
	_ "embed"
	"net/http"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
	"github.com/gamedata-go/gamedata/internal/manifest"
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
	manifest.Dashboard.Path: {FamilyDashboard, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return directory(r, s.Dashboard(r.URL.Query()))
	}},
	manifest.Organizations.Path: {FamilyOrganizations, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return directory(r, s.Organizations(r.URL.Query()))
	}},
	manifest.Search.Path: {FamilySearch, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.Search(r.URL.Query().Get("q")))
	}},
	manifest.ActivityHistory.Path: {FamilyActivity, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.Activity(r.URL.Query().Get("range")))
	}},
	manifest.Package.Path: {FamilyPackage, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Package(a[0], a[1]))
	}},
	manifest.Server.Path: {FamilyServer, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Server(a[0]))
	}},
	manifest.Organization.Path: {FamilyOrganization, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.Organization(a[0]))
	}},
	manifest.AnalyticsSearch.Path: {FamilyAnalyticsSearch, func(s *catalog.Snapshot, r *http.Request, _ []string) reply {
		return found(s.AnalyticsSearch(r.URL.Query().Get("q")))
	}},
	manifest.AnalyticsPackage.Path: {FamilyAnalyticsPackage, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.PackageReport(a[0], a[1]))
	}},
	manifest.AnalyticsOrganization.Path: {FamilyAnalyticsOrganization, func(s *catalog.Snapshot, _ *http.Request, a []string) reply {
		return found(s.OrganizationReport(a[0]))
	}},
	manifest.OpenAPI.Path: {FamilyOpenAPI, func(*catalog.Snapshot, *http.Request, []string) reply {
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
