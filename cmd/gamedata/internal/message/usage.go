package message

import (
	"errors"
	"fmt"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// UsageError is bad usage: exit status 2 rather than 1. Err says what is
// wrong and what to give instead. Every usage error is made where the
// usage is checked (a flag, an argument, --fields, --jq), in whichever
// package checks it, so the exit status never depends on the words of a
// message.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap is Err, so that errors.Is and errors.As see through a
// UsageError.
func (e UsageError) Unwrap() error { return e.Err }

// Usagef is a UsageError with a message, formatted as fmt.Errorf does.
func Usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// IsUsage reports whether err is bad usage: a UsageError, or an argument
// the library refused before sending anything.
func IsUsage(err error) bool {
	var ue UsageError
	return errors.As(err, &ue) || errors.Is(err, gamedata.ErrInvalidArgument)
}

// ExactArgs is cobra.ExactArgs whose error is bad usage; what names the
// arguments wanted.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("%s: want %s, got %d argument(s)", cmd.Name(), what, len(args))
		}
		return nil
	}
}
