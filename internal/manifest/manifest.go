// Package manifest lists what the SDK asks of the service: every path,
// the named query parameters it sends there, and the calls that send them.
//
// The list is written by hand, for the drift check (examples/drift) to
// compare with the service's OpenAPI description, and it cannot drift
// from the SDK silently: TestManifest in the root package drives every
// exported method of the client against a test server, with every option
// set, and fails unless the paths and parameters it sees are exactly
// these.
//
// It is also the route table of the service: the twin (gamedatatest)
// answers exactly these paths, and Match finds which one a request's path
// names, with the values of its path parameters.
package manifest

// Endpoint is one path the SDK requests, always with GET.
type Endpoint struct {
	// Path is the path under the base URL, with path parameters written
	// as in OpenAPI: "/api/packages/{kind}/{ident}".
	Path string
	// Params are the names of the query parameters the SDK sends, sorted.
	// Parameters a caller passes through Params (those the service does
	// not document) are not listed.
	Params []string
	// Calls are the client's methods that request Path, as
	// "Service.Method", or "Method" for one of the Client itself, sorted.
	Calls []string
}

// The endpoints, one a path: the client builds each request's URL from
// one of these, the twin answers them, and the drift check compares them
// with the service's OpenAPI description. A route template is written
// here and nowhere else.
var (
	ActivityHistory       = Endpoint{Path: "/api/activity-history", Params: []string{"range"}, Calls: []string{"Activity.History"}}
	AnalyticsOrganization = Endpoint{Path: "/api/analytics/organizations/{ident}", Calls: []string{"Analytics.Organization"}}
	AnalyticsSearch       = Endpoint{Path: "/api/analytics/packages", Params: []string{"q"}, Calls: []string{"Analytics.Search"}}
	AnalyticsPackage      = Endpoint{Path: "/api/analytics/packages/{kind}/{ident}", Calls: []string{"Analytics.Package"}}
	Dashboard             = Endpoint{Path: "/api/dashboard", Params: []string{"filter", "kind", "page", "pageSize", "sort"}, Calls: []string{"Dashboard.All", "Dashboard.List", "Dashboard.Watch"}}
	Organizations         = Endpoint{Path: "/api/organizations", Params: []string{"filter", "page", "pageSize", "sort"}, Calls: []string{"Organizations.All", "Organizations.List"}}
	Organization          = Endpoint{Path: "/api/organizations/{ident}", Calls: []string{"Organizations.Get"}}
	Package               = Endpoint{Path: "/api/packages/{kind}/{ident}", Calls: []string{"Packages.Get", "Packages.GetMany", "Packages.Watch"}}
	Search                = Endpoint{Path: "/api/search", Params: []string{"q"}, Calls: []string{"Search"}}
	Server                = Endpoint{Path: "/api/servers/{id}", Calls: []string{"Servers.Get", "Servers.GetMany"}}
	OpenAPI               = Endpoint{Path: "/openapi.json", Calls: []string{"OpenAPI"}}
)

// Endpoints are the paths the SDK requests, sorted by path.
var Endpoints = []Endpoint{
	ActivityHistory, AnalyticsOrganization, AnalyticsSearch, AnalyticsPackage, Dashboard,
	Organizations, Organization, Package, Search, Server, OpenAPI,
}
