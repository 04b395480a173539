package collect

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// servedKind says whether the service served e for a directory of kind:
// the service answers a kind it does not know with its default
// directory instead of an error, so an entry of another kind (or a
// package in a directory of servers) means the kind was not understood.
func servedKind(kind string, e gamedata.DashboardEntry) error {
	switch {
	case kind == "":
		return nil
	case kind == "server" && !e.IsServer():
		return fmt.Errorf("the service served package %s for --kind server: it does not list servers there", entryName(e))
	case kind != "server" && e.Kind != kind:
		return fmt.Errorf("the service served %s for --kind %s: it does not know the kind %s, and answers an unknown kind with its default directory",
			entryName(e), strconv.Quote(kind), strconv.Quote(kind))
	}
	return nil
}

// entryName names an entry in a message: kind/ident, or server id.
func entryName(e gamedata.DashboardEntry) string {
	if e.IsServer() {
		return "server " + strconv.Quote(e.ID)
	}
	return strconv.Quote(e.Kind) + "/" + strconv.Quote(e.Ident)
}

// keyName names an entry the store refused, quoted so that a NUL or
// invalid UTF-8 in it is said, not lost.
func keyName(k store.Key) string {
	if k.ID != "" {
		return "server " + strconv.Quote(k.ID)
	}
	return strconv.Quote(k.Kind) + "/" + strconv.Quote(k.Ident)
}

// unreachable reports whether err says that the service cannot be
// reached at all (a connection refused, a name that does not resolve),
// as the command says it.
func unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	return errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial")
}
