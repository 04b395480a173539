package collect

import "time"

// Options say what a run collects and when something is due again.
type Options struct {
	// Kind is the directory's kind: a package kind, or "server".
	Kind string
	// Range is the activity history's range, such as "7d".
	Range string
	// DetailsEvery is the age after which a detail record is fetched
	// again even though its entry says it did not change; 0 fetches
	// every record every run.
	DetailsEvery time.Duration
	// HistoryEvery is the age after which a package's analytics report
	// is fetched again, measured on this machine's clock from when it
	// was fetched.
	HistoryEvery time.Duration
	// Concurrency is how many detail records are fetched at once (the
	// client's rate limit still holds); less than 1 means 1.
	Concurrency int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Progress, when set, is called as the run goes, from the run's
	// goroutine.
	Progress func(Progress)
	// BytesRead, when set, says how many bytes of responses the client
	// has read so far; the run records its own share. Unset, the bytes
	// are not counted, and the runs table holds NULL.
	BytesRead func() int64
}

// Stages of a run, in order.
const (
	StageDirectory = "directory"
	StageDetails   = "details"
	StageReports   = "reports"
	StageActivity  = "activity"
)

// Progress is how far a stage has got: Done items of Total, or of an
// unknown total (-1) while the directory is walked; a walk that reaches
// the last page then says its length as its Total. Done counts an item
// when it is fetched (or has failed), not when its batch is written.
type Progress struct {
	Stage       string
	Done, Total int
}
