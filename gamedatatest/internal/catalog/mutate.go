package catalog

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Now is the catalogue's clock: where every history ends.
func (s *Snapshot) Now() time.Time { return s.now }

// Modified is the time of the last change to the catalogue, the
// Last-Modified of every answer drawn from it.
func (s *Snapshot) Modified() time.Time { return s.modified }

// Advance is s with its clock moved forward by d: the activity history
// gains a point a step for the time added and every analytics history an
// entry a whole day, while the older ones stay as they were.
func (s *Snapshot) Advance(d time.Duration) *Snapshot {
	n, _ := s.change(func(n *Snapshot) error {
		n.now = n.now.Add(d)
		return nil
	})
	return n
}

// UpdatePackage is s with the package kind/ident retitled (unless title is
// empty), its players replaced (unless players is nil; a NaN makes them
// null) and its updatedAt set to the clock. It fails when there is no such
// package.
func (s *Snapshot) UpdatePackage(kind, ident, title string, players *float64) (*Snapshot, error) {
	return s.change(func(n *Snapshot) error {
		i, ok := n.pkgIndex[pkgKey{kind, ident}]
		if !ok {
			return fmt.Errorf("gamedatatest: no package %s/%s", kind, ident)
		}
		n.pkgs = slices.Clone(n.pkgs)
		p := &n.pkgs[i]
		if title != "" {
			p.title, p.plain = title, title
		}
		if players != nil {
			m := known(*players)
			if math.IsNaN(*players) {
				m = metric{}
			}
			p.setPlayers(m)
		}
		p.updatedAt = n.now
		return nil
	})
}

// AddPackage is s with a package of kind game, mod or tool added, its
// metrics drawn from the seed, kind and ident, created and updated at the
// clock, with no organization. It fails for another kind, an empty ident,
// or a package that exists.
func (s *Snapshot) AddPackage(kind, ident, title string) (*Snapshot, error) {
	if !slices.Contains(packageKinds, kind) || ident == "" {
		return nil, fmt.Errorf("gamedatatest: cannot add package %q/%q: want kind game, mod or tool and an ident", kind, ident)
	}
	return s.change(func(n *Snapshot) error {
		if _, ok := n.pkgIndex[pkgKey{kind, ident}]; ok {
			return fmt.Errorf("gamedatatest: package %s/%s exists", kind, ident)
		}
		r := rand.New(rand.NewPCG(hash64(n.seed, "added", kind, ident), streamData))
		p := newPackage(r, n.seed, n.now, kind, ident, title)
		p.createdAt, p.updatedAt = n.now, n.now
		i, _ := slices.BinarySearchFunc(n.pkgs, p, byIdentKind)
		n.pkgs = slices.Insert(slices.Clone(n.pkgs), i, p)
		n.index()
		return nil
	})
}

// RemovePackage is s without the package kind/ident, in its directories,
// its organization's record and search; servers that ran it keep their
// reference. It fails when there is no such package.
func (s *Snapshot) RemovePackage(kind, ident string) (*Snapshot, error) {
	return s.change(func(n *Snapshot) error {
		i, ok := n.pkgIndex[pkgKey{kind, ident}]
		if !ok {
			return fmt.Errorf("gamedatatest: no package %s/%s", kind, ident)
		}
		if org := n.pkgs[i].org; org != "" {
			n.orgs = slices.Clone(n.orgs)
			o := &n.orgs[n.orgIndex[org]]
			o.packages = slices.DeleteFunc(slices.Clone(o.packages), func(k pkgKey) bool { return k == pkgKey{kind, ident} })
		}
		n.pkgs = slices.Delete(slices.Clone(n.pkgs), i, i+1)
		n.index()
		return nil
	})
}

// change is a copy of s changed by f, unless f fails. Every change moves
// Modified on by at least a second, so that If-Modified-Since sees it.
func (s *Snapshot) change(f func(*Snapshot) error) (*Snapshot, error) {
	n := *s
	if err := f(&n); err != nil {
		return nil, err
	}
	n.modified = later(n.now, n.modified.Add(time.Second))
	return &n, nil
}
