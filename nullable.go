package gamedata

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Nullable holds a metric that the service may leave out or send as null.
// Null means "unavailable", never zero, so the zero value of T is never
// reported unless the service sent it. A Nullable is in one of three states:
// absent (the member was not sent), null (sent as null) or valid.
//
// The zero Nullable is absent. With the `omitzero` struct tag, an absent
// Nullable is left out when marshalled; a null one is written as null.
type Nullable[T any] struct {
	value T
	state nullState
}

type nullState uint8

const (
	stateAbsent nullState = iota
	stateNull
	stateValid
	// stateOther: sent, but neither null nor of type T (see Fields.Metric).
	stateOther
)

// Value returns a valid Nullable holding v.
func Value[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: stateValid} }

// Null returns a Nullable that was sent as null: the metric is unavailable.
func Null[T any]() Nullable[T] { return Nullable[T]{state: stateNull} }

// Get returns the value and true when the service sent one. It returns the
// zero value and false when the metric is null or absent; that zero is not
// data and must not be shown or summed as such.
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == stateValid }

// Or returns the value, or def when there is none: the caller says what
// stands in for an unavailable metric, never the SDK.
func (n Nullable[T]) Or(def T) T {
	if n.state != stateValid {
		return def
	}
	return n.value
}

// String returns the value as fmt's %v writes it, or "null" when there is
// none (null, absent, or a member of another type), so a missing metric
// never prints as 0.
func (n Nullable[T]) String() string {
	if n.state != stateValid {
		return "null"
	}
	return fmt.Sprint(n.value)
}

// IsNull reports whether the service sent null for this metric: it is
// unavailable, which is not zero.
func (n Nullable[T]) IsNull() bool { return n.state == stateNull }

// Present reports whether the service sent the member at all, as a value or
// as null.
func (n Nullable[T]) Present() bool { return n.state != stateAbsent }

// IsZero reports whether n is absent. It lets `omitzero` leave absent
// members out of marshalled output.
func (n Nullable[T]) IsZero() bool { return n.state == stateAbsent }

// MarshalJSON writes the value, or null when there is none.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != stateValid {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON reads null as the null state and anything else as a value
// of type T.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = Value(v)
	return nil
}
