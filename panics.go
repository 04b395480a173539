package gamedata

import (
	"fmt"
	"runtime/debug"
)

// PanicError is what the SDK panics with, in the goroutine that iterates,
// when code of the caller's (a middleware, a hook, a Cache) panicked in a
// goroutine the SDK started: the one that fetches a walk's pages ahead
// (WithPrefetch) or a worker of GetMany. A panic there would end the
// program, out of the caller's reach; carried back, it reaches the
// caller's recover, and unrecovered it still ends the program, with the
// stack where it began.
type PanicError struct {
	// Value is what the code panicked with.
	Value any
	// Stack is the stack of the goroutine that panicked, as
	// runtime/debug.Stack writes it.
	Stack []byte
}

// Error says what the code panicked with and where.
func (e *PanicError) Error() string {
	return fmt.Sprintf("gamedata: panic in a goroutine of the SDK: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns Value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// catchPanic runs f and returns what it panicked with, or nil. It runs in
// the goroutines the SDK starts, whose results carry the panic to the
// caller's goroutine.
func catchPanic(f func()) (p *PanicError) {
	defer func() {
		if v := recover(); v != nil {
			p = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}
