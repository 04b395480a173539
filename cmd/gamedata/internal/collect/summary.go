package collect

import (
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// Summary is what a run did.
type Summary struct {
	// Run is the run's id in the runs table.
	Run     int64
	Outcome store.Outcome
	// Entries were listed by the walk: New of them for the first time
	// (or again after they left), Changed with values that moved; Gone
	// left the directory. Complete is false when the walk did not reach
	// the last page, and then no entry is recorded as gone.
	Entries, New, Changed, Gone int
	Complete                    bool
	// Unnamed entries are listed but no request can name them ("." and
	// ".."), so they have no details or report.
	Unnamed int
	// Details, Reports and Points were fetched and written.
	Details, Reports, Points int
	// Added and ChangedRows count rows inserted and rows changed.
	Added, ChangedRows int64
	// Requests were sent by the client during the run, retries included.
	Requests int64
	// BytesRead is the bytes of the responses read during the run (a
	// 304 and a cache hit read none); nil when not counted.
	BytesRead *int64
	// Failed items were recorded in the failures table and skipped.
	Failed  int
	Elapsed time.Duration
}

// String is the run in one line, as sync prints it on stderr.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %d %s in %s: %d entries (%d new, %d changed, %d gone", s.Run, s.Outcome, s.Elapsed.Round(time.Millisecond), s.Entries, s.New, s.Changed, s.Gone)
	if s.Unnamed > 0 {
		fmt.Fprintf(&b, ", %d no request can name", s.Unnamed)
	}
	b.WriteString(")")
	if !s.Complete {
		b.WriteString(", walk incomplete")
	}
	fmt.Fprintf(&b, ", %d details, %d reports, %d activity points; %d rows added, %d changed; %d requests",
		s.Details, s.Reports, s.Points, s.Added, s.ChangedRows, s.Requests)
	if s.BytesRead != nil {
		fmt.Fprintf(&b, ", %d bytes read", *s.BytesRead)
	}
	fmt.Fprintf(&b, "; %d failed", s.Failed)
	return b.String()
}
