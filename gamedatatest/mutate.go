package gamedatatest

import (
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
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
	s.h.mutate(func(n *catalog.Snapshot) (*catalog.Snapshot, error) { return n.Advance(d), nil })
}

// UpdatePackage changes the package kind/ident as u says and sets its
// updatedAt to the twin's clock. It returns an error when there is no such
// package.
func (s *Server) UpdatePackage(kind, ident string, u PackageUpdate) error {
	return s.h.mutate(func(n *catalog.Snapshot) (*catalog.Snapshot, error) {
		return n.UpdatePackage(kind, ident, u.Title, u.Players)
	})
}

// AddPackage adds a package of kind game, mod or tool to the catalogue,
// with metrics drawn from the seed, kind and ident, created and updated at
// the twin's clock, and no organization. It returns an error for another
// kind, an empty ident, or a package that exists.
func (s *Server) AddPackage(kind, ident, title string) error {
	return s.h.mutate(func(n *catalog.Snapshot) (*catalog.Snapshot, error) {
		return n.AddPackage(kind, ident, title)
	})
}

// RemovePackage removes the package kind/ident: it leaves the directories,
// its organization's record and search, and its detail and analytics
// answer 404. Servers that ran it keep their reference. It returns an error
// when there is no such package.
func (s *Server) RemovePackage(kind, ident string) error {
	return s.h.mutate(func(n *catalog.Snapshot) (*catalog.Snapshot, error) {
		return n.RemovePackage(kind, ident)
	})
}

// mutate makes what change makes of the current snapshot current, unless
// change fails; changes are serialized so that none is lost.
func (h *handler) mutate(change func(*catalog.Snapshot) (*catalog.Snapshot, error)) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, err := change(h.snap.Load())
	if err != nil {
		return err
	}
	h.snap.Store(n)
	return nil
}
