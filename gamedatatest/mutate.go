package gamedatatest

import (
	"cmp"

	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// PackageUpdate is a change to one package of the catalogue; the zero
// value changes nothing but the package's updatedAt.
type PackageUpdate struct {
	// Title, when not empty, replaces the title.
	Title string
	// Players, when not nil, replaces the players metric; a NaN makes it
	// null (unavailable). A known playersPeak below the new players rises
	// to them, as a platform's all-time peak would.
	Players *float64
}

// Advance moves the twin's clock forward by d (d <= 0 does nothing). The
// activity history gains a point a step for the time added and every
// analytics history an entry a whole day, each drawn from its own time,
// while the older points and entries keep their timestamps and values and
// the windows keep their lengths. Catalog.Now moves by d. The result is
// reproducible: the same seed advanced by the same total serves the same
// data, in one call or many.
func (s *Server) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	s.h.mutate(func(n *snapshot) error {
		n.now = n.now.Add(d)
		return nil
	})
}

// UpdatePackage changes the package kind/ident as u says and sets its
// updatedAt to the twin's clock. It returns an error when there is no such
// package.
func (s *Server) UpdatePackage(kind, ident string, u PackageUpdate) error {
	return s.h.mutate(func(n *snapshot) error {
		i, ok := n.pkgIndex[pkgKey{kind, ident}]
		if !ok {
			return fmt.Errorf("gamedatatest: no package %s/%s", kind, ident)
		}
		n.pkgs = slices.Clone(n.pkgs)
		p := &n.pkgs[i]
		if u.Title != "" {
			p.title, p.plain = u.Title, u.Title
		}
		if u.Players != nil {
			players := known(*u.Players)
			if math.IsNaN(*u.Players) {
				players = metric{}
			}
			p.setPlayers(players)
		}
		p.updatedAt = n.now
		return nil
	})
}

// AddPackage adds a package of kind game, mod or tool to the catalogue,
// with metrics drawn from the seed, kind and ident, created and updated at
// the twin's clock, and no organization. It returns an error for another
// kind, an empty ident, or a package that exists.
func (s *Server) AddPackage(kind, ident, title string) error {
	if !slices.Contains(packageKinds, kind) || ident == "" {
		return fmt.Errorf("gamedatatest: cannot add package %q/%q: want kind game, mod or tool and an ident", kind, ident)
	}
	return s.h.mutate(func(n *snapshot) error {
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

// RemovePackage removes the package kind/ident: it leaves the directories,
// its organization's record and search, and its detail and analytics
// answer 404. Servers that ran it keep their reference. It returns an error
// when there is no such package.
func (s *Server) RemovePackage(kind, ident string) error {
	return s.h.mutate(func(n *snapshot) error {
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

// mutate applies change to a copy of the current snapshot and makes the
// copy current, unless change fails. Every change moves Last-Modified on
// by at least a second, so that If-Modified-Since sees it.
func (h *handler) mutate(change func(*snapshot) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := *h.snap.Load()
	if err := change(&n); err != nil {
		return err
	}
	n.modified = later(n.now, n.modified.Add(time.Second))
	h.snap.Store(&n)
	return nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func byIdentKind(a, b pkg) int {
	return cmp.Or(cmp.Compare(a.ident, b.ident), cmp.Compare(a.kind, b.kind))
}
