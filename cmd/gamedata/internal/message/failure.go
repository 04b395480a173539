package message

import (
	"errors"
	"fmt"

	"github.com/gamedata-go/gamedata"
)

// ItemCause is err without the *gamedata.ItemError around it, whose index
// counts from the start of one call (a page of an export, the refs of a
// watch) and so says less than the name of the item, which callers give.
func ItemCause(err error) error {
	var ie *gamedata.ItemError
	if errors.As(err, &ie) {
		return ie.Err
	}
	return err
}

// ExitInterrupted is the exit status of a command an interrupt cut short:
// 128 and SIGINT's number, as shells (and gh) report it.
const ExitInterrupted = 130

// keptError is the error of a command that was cut short, with what it
// kept: said after "interrupted" when an interrupt is what cut it.
type keptError struct {
	kept string
	err  error
}

// WithKept notes on err what the command kept, for the line that says it
// was interrupted; err's own text is said when something else failed.
func WithKept(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &keptError{kept: fmt.Sprintf(format, args...), err: err}
}

func (e *keptError) Error() string { return e.err.Error() }

func (e *keptError) Unwrap() error { return e.err }

// Interrupted is the line said when an interrupt ended a command that
// failed because of it: no raw "context canceled", but what was kept.
func Interrupted(err error) string {
	var k *keptError
	if errors.As(err, &k) {
		return "interrupted; " + k.kept
	}
	return "interrupted"
}
