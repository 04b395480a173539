// Package catalog builds and changes the twin's catalogue: the generated
// packages, servers and organizations, their levels and histories, and
// the bodies the twin serves for them. It is pure data: no HTTP, no
// clock but the catalogue's own, no locks. A Snapshot never changes; a
// change returns a new one.
//
// Its API is what package gamedatatest serves from: Generate, the changes
// (Advance, UpdatePackage, AddPackage, RemovePackage, Reordered), and one
// method a body (Package, Server, Organization, PackageReport,
// OrganizationReport, Activity, Search, AnalyticsSearch, Dashboard and
// Organizations a page), plus the typed directory entries of
// gamedatatest.Catalog.
package catalog
