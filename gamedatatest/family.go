package gamedatatest

// Family names a family of endpoints that share a caching policy.
type Family string

// The endpoint families.
const (
	FamilyDashboard             Family = "dashboard"              // /api/dashboard
	FamilySearch                Family = "search"                 // /api/search
	FamilyPackage               Family = "package"                // /api/packages/{kind}/{ident}
	FamilyServer                Family = "server"                 // /api/servers/{id}
	FamilyOrganization          Family = "organization"           // /api/organizations/{ident}
	FamilyOrganizations         Family = "organizations"          // /api/organizations
	FamilyActivity              Family = "activity"               // /api/activity-history
	FamilyAnalyticsSearch       Family = "analytics-search"       // /api/analytics/packages
	FamilyAnalyticsPackage      Family = "analytics-package"      // /api/analytics/packages/{kind}/{ident}
	FamilyAnalyticsOrganization Family = "analytics-organization" // /api/analytics/organizations/{ident}
	FamilyOpenAPI               Family = "openapi"                // /openapi.json
)

// Families returns every endpoint family.
func Families() []Family {
	return []Family{
		FamilyDashboard, FamilySearch, FamilyPackage, FamilyServer, FamilyOrganization, FamilyOrganizations,
		FamilyActivity, FamilyAnalyticsSearch, FamilyAnalyticsPackage, FamilyAnalyticsOrganization, FamilyOpenAPI,
	}
}
