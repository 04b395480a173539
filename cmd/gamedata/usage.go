package main

import (
	"errors"
	"fmt"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// usageError is bad usage: exit status 2. Every usage error is one of
// these, made where the usage is checked, so the exit status never
// depends on the words of a message.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef is a usageError with a message.
func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// isUsage reports whether err is bad usage: a usageError, or an argument
// the library refused before sending anything.
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue) || errors.Is(err, gamedata.ErrInvalidArgument)
}

// exactArgs is cobra.ExactArgs whose error is bad usage.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s: want %s, got %d argument(s)", cmd.Name(), what, len(args))
		}
		return nil
	}
}
