package exporter

import (
	"crypto/sha256"
	"slices"
	"time"

	"github.com/gamedata-go/gamedata"
)

// item is one package or dedicated server to export, reduced, as soon as
// it is read, to what its series need: label values already sanitized and
// cut to maxLabelRunes, and the numbers. Nothing else the service sent
// (a title of any length, members that are not numbers) outlives the
// read, so what a part holds follows the series it exports.
type item struct {
	server bool
	// kind, ident and id are label values.
	kind, ident, id string
	// identity is a digest of the identity as sent, before any
	// sanitizing: it tells a repeat (a package named and also in a walk)
	// from two entries whose labels are alike.
	identity [sha256.Size]byte
	// players is the member players; peak is playersPeak for a package,
	// maxPlayers for a server.
	players, peak gamedata.Nullable[float64]
	// title and org are label values, of a package only.
	title, org string
	// members are the other numeric members of a package whose names
	// may derive a metric name; skipped are those whose names are too
	// long to, as label values for the log.
	members []member
	skipped []string
}

// ownFamilies are the members that never get a family derived from their
// name: the identifiers, which may be numbers, and the members with a
// family of their own.
var ownFamilies = []string{"kind", "ident", "id", "players", "playersPeak"}

// member is a numeric member of a package, by the name it was sent with.
type member struct {
	name  string
	value float64
}

func entryItem(e gamedata.DashboardEntry) item {
	if e.IsServer() {
		return serverItem(e.ID, e.Fields)
	}
	return packageItem(e.Kind, e.Ident, e.Fields)
}

func packageItem(kind, ident string, f gamedata.Fields) item {
	it := item{kind: labelValue(kind), ident: labelValue(ident),
		identity: sha256.Sum256([]byte(kind + "\x00" + ident)),
		players:  f.Metric("players"), peak: f.Metric("playersPeak")}
	title, _ := f.Text("title")
	org, _ := f.Text("organization")
	it.title, it.org = labelValue(title.Unsanitized()), labelValue(org.Unsanitized())
	for _, m := range f.Names() {
		v, ok := f.Metric(m).Get()
		switch {
		case !ok || slices.Contains(ownFamilies, m):
		case len(m) > maxMemberBytes:
			it.skipped = append(it.skipped, labelValue(m))
		default:
			it.members = append(it.members, member{name: m, value: v})
		}
	}
	return it
}

func serverItem(id string, f gamedata.Fields) item {
	return item{server: true, id: labelValue(id), identity: sha256.Sum256([]byte("server\x00" + id)),
		players: f.Metric("players"), peak: f.Metric("maxPlayers")}
}

// labels are the label values that name the item's series, joined: two
// items with the same labels would make the same series.
func (it item) labels() string {
	if it.server {
		return "server\x00" + it.id
	}
	return it.kind + "\x00" + it.ident
}

// String names the item for a log line, sanitized.
func (it item) String() string {
	if it.server {
		return "server " + it.id
	}
	return "package " + it.kind + "/" + it.ident
}

// part is what one source gave at its last good poll.
type part struct {
	items []item
	// cut is true when a walk stopped at the series cap with more of the
	// directory unread.
	cut bool
	// activity is the latest activity point, for the activity source.
	activity *gamedata.ActivityPoint
	// at is when the poll that read it started; zero for nothing read.
	at time.Time
}
