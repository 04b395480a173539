package printer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
)

// The columns of a CSV file or a table, when --fields does not name them,
// are a documented list for what is printed, then every member that is a
// number (or null) in the records and is not in the list, by name. The
// service documents no field beyond identifiers, so the lists are those
// of the members it is seen to send; a member it adds is a column as
// soon as it appears.
//
// When every record is read before anything is printed (a page, a
// record, a search), a listed column is written when some record has
// it. When records are printed as they come (list --all, orgs --all,
// export), the columns are chosen before the last record is seen: every
// listed column is written, present or not, so that a member the first
// page lacks (a peak that is null there) is not lost, and the members of
// the first page are added. A numeric member that first appears later is
// named on stderr, once.
var (
	PackageColumns      = []string{"kind", "ident", "title", "players", "playersPeak", "rating", "servers"}
	ServerColumns       = []string{"id", "name", "players", "maxPlayers"}
	OrganizationColumns = []string{"ident", "name", "packages"}
	SearchColumns       = []string{"type", "kind", "ident", "id", "name", "players"}
	HistoryColumns      = []string{"capturedAt", "partialCoverage", "players", "playersPeak"}
	SummaryColumns      = []string{"range", "partialCoverage", "average", "peak"}
	ActivityColumns     = []string{"time", "players", "aggregation", "partialCoverage", "current", "intervalStart", "intervalEnd"}
)

// DirectoryColumns are the documented columns of the dashboard directory
// of kind: dedicated servers, or packages of any kind (an unsupported kind
// lists every package).
func DirectoryColumns(kind string) []string {
	if kind == "server" {
		return ServerColumns
	}
	return PackageColumns
}

// chooseColumns picks the columns of records: the known ones (every one
// when all is set, those some record has otherwise), then every other
// member that is a number or null in all of them and a number in one at
// least, by name.
func chooseColumns(records []gamedata.Fields, known []string, all bool) []string {
	present := presentNames(records)
	var cols []string
	for _, c := range known {
		if all || present[c] {
			cols = append(cols, c)
		}
	}
	var metrics []string
	for n := range present {
		if slices.Contains(cols, n) || !numeric(records, n) {
			continue
		}
		metrics = append(metrics, n)
	}
	slices.Sort(metrics)
	return append(cols, metrics...)
}

func presentNames(records []gamedata.Fields) map[string]bool {
	present := map[string]bool{}
	for _, f := range records {
		for _, n := range f.Names() {
			present[n] = true
		}
	}
	return present
}

// numeric reports whether member name is a number or null wherever it is
// sent, and a number once at least.
func numeric(records []gamedata.Fields, name string) bool {
	seen := false
	for _, f := range records {
		m := f.Metric(name)
		_, number := m.Get()
		switch {
		case number:
			seen = true
		case m.Present() && !m.IsNull():
			return false
		}
	}
	return seen
}

// CheckFields refuses a --fields name that is neither a known column nor
// a member of any of records: a typo would otherwise be an empty column.
// The error is bad usage and lists the names there are.
func CheckFields(fields, known []string, records []gamedata.Fields) error {
	present := presentNames(records)
	var unknown []string
	for _, f := range fields {
		if !slices.Contains(known, f) && !present[f] {
			unknown = append(unknown, fmt.Sprintf("%q", f))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	names := slices.Clone(known)
	var others []string
	for n := range present {
		if !slices.Contains(names, n) {
			others = append(others, n)
		}
	}
	slices.Sort(others)
	names = append(names, others...)
	return message.Usagef("--fields %s: no such member; the members are %s", strings.Join(unknown, ", "), strings.Join(names, ", "))
}

// WithIdentity is columns with every identity column first, those it
// names where it names them: an export always writes the identities it
// is resumed by.
func WithIdentity(identity, columns []string) []string {
	var out []string
	for _, c := range identity {
		if !slices.Contains(columns, c) {
			out = append(out, c)
		}
	}
	return append(out, columns...)
}

// ColumnsHelp names columns for a command's help.
func ColumnsHelp(columns []string) string { return strings.Join(columns, ", ") }
