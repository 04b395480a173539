package catalog

import "strings"

// searchLimit caps each list of a search answer.
const searchLimit = 25

// The bodies below are byte for byte what the twin serves with status 200,
// final newline included; nil where there is no such record, which the
// twin answers 404.

// Package is the body of /api/packages/{kind}/{ident}.
func (s *Snapshot) Package(kind, ident string) []byte {
	if p := s.findPackage(kind, ident); p != nil {
		return Encode(p.record())
	}
	return nil
}

// Server is the body of /api/servers/{id}.
func (s *Snapshot) Server(id string) []byte {
	if i, ok := s.srvIndex[id]; ok {
		return Encode(s.srvs[i].record())
	}
	return nil
}

// Organization is the body of /api/organizations/{ident}.
func (s *Snapshot) Organization(ident string) []byte {
	if o := s.findOrg(ident); o != nil {
		return Encode(o.record())
	}
	return nil
}

// PackageReport is the body of /api/analytics/packages/{kind}/{ident}.
func (s *Snapshot) PackageReport(kind, ident string) []byte {
	if p := s.findPackage(kind, ident); p != nil {
		return Encode(s.packageReport(p))
	}
	return nil
}

// OrganizationReport is the body of /api/analytics/organizations/{ident}.
func (s *Snapshot) OrganizationReport(ident string) []byte {
	if o := s.findOrg(ident); o != nil {
		return Encode(s.orgReport(o))
	}
	return nil
}

// Search is the body of /api/search?q=query: the packages, servers and
// organizations whose identifier or name holds the query, trimmed,
// case-insensitively, in default order, at most searchLimit of each. An
// empty query matches nothing.
func (s *Snapshot) Search(query string) []byte { return Encode(s.search(query)) }

// AnalyticsSearch is the body of /api/analytics/packages?q=query: the
// search without servers.
func (s *Snapshot) AnalyticsSearch(query string) []byte {
	res := s.search(query)
	res.Servers = nil
	return Encode(res)
}

func (s *Snapshot) search(query string) searchJSON {
	q := strings.ToLower(strings.TrimSpace(query))
	return searchJSON{
		Query:         query,
		Packages:      matching(s.pkgs, q, func(p *pkg) (string, string) { return p.ident, p.title }, (*pkg).entry),
		Servers:       matching(s.srvs, q, func(v *srv) (string, string) { return v.id, v.name }, (*srv).entry),
		Organizations: matching(s.orgs, q, func(o *org) (string, string) { return o.ident, o.name }, (*org).entry),
	}
}

// matching is the entries of the first searchLimit of xs whose identifier
// or name, lowered, holds q; empty, not nil, when there are none.
func matching[T, J any](xs []T, q string, names func(*T) (string, string), entry func(*T) J) []J {
	out := []J{}
	if q == "" {
		return out
	}
	for i := range xs {
		id, name := names(&xs[i])
		if strings.Contains(strings.ToLower(id), q) || strings.Contains(strings.ToLower(name), q) {
			out = append(out, entry(&xs[i]))
			if len(out) == searchLimit {
				break
			}
		}
	}
	return out
}

func (s *Snapshot) findPackage(kind, ident string) *pkg {
	if i, ok := s.pkgIndex[pkgKey{kind, ident}]; ok {
		return &s.pkgs[i]
	}
	return nil
}

func (s *Snapshot) findOrg(ident string) *org {
	if i, ok := s.orgIndex[ident]; ok {
		return &s.orgs[i]
	}
	return nil
}
