// Package usage marks bad usage of the command: an error that exits with
// status 2 rather than 1. Every usage error is made where the usage is
// checked (a flag, an argument, --fields, --jq), in whichever package
// checks it, so the exit status never depends on the words of a message.
package usage

import (
	"errors"
	"fmt"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// Error is bad usage: exit status 2. Err says what is wrong and what to
// give instead.
type Error struct{ Err error }

func (e Error) Error() string { return e.Err.Error() }

// Unwrap is Err, so that errors.Is and errors.As see through an Error.
func (e Error) Unwrap() error { return e.Err }

// Errorf is an Error with a message, formatted as fmt.Errorf does.
func Errorf(format string, args ...any) error { return Error{fmt.Errorf(format, args...)} }

// Is reports whether err is bad usage: an Error, or an argument the
// library refused before sending anything.
func Is(err error) bool {
	var ue Error
	return errors.As(err, &ue) || errors.Is(err, gamedata.ErrInvalidArgument)
}

// ExactArgs is cobra.ExactArgs whose error is bad usage; what names the
// arguments wanted.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Errorf("%s: want %s, got %d argument(s)", cmd.Name(), what, len(args))
		}
		return nil
	}
}
