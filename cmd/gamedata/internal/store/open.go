package store

import (
	"context"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
)

// Open opens the database conn names, creating and migrating it as
// needed: a postgres:// or postgresql:// URL or a libpq keyword/value
// string is PostgreSQL, a file path SQLite, and anything else is refused
// (dsn.Parse). A database of a newer schema version than this program
// knows is refused before anything in it changes. Every error it and the
// DB's methods return names the database without its secrets and says
// what to do.
func Open(ctx context.Context, conn string) (*DB, error) {
	s, err := connect(conn)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, s.explain(err)
	}
	if err := s.d.prepare(ctx, s.db); err != nil {
		s.db.Close()
		return nil, s.explain(err)
	}
	s.opened = true
	return s, nil
}

// connect opens conn without migrating it.
func connect(conn string) (*DB, error) {
	c, err := dsn.Parse(conn)
	if err != nil {
		return nil, err
	}
	var d dialect = sqlite{}
	if c.Kind == dsn.Postgres {
		d = postgres{}
	} else if err := checkPath(c.Conn); err != nil {
		return nil, err
	}
	db, err := d.open(c.Conn)
	if err != nil {
		return nil, explain(c, err, false)
	}
	return &DB{db: db, d: d, conn: c}, nil
}
