package main

import "time"

// givenString and givenDuration are a flag's value bound into a
// command's options together with whether the command line gave it, for
// what a flag's default cannot say: --timeout's bound (which --all
// lifts), --base-url's default ($GAMEDATA_BASE_URL, said apart from the
// flag), sync's own --cache-dir and chart package's refusal of --range.
// The options then hold it once the flags are parsed, and nothing reads
// a flag back by its name.
type givenString struct {
	value *string
	given *bool
}

func (v givenString) String() string { return *v.value }

func (v givenString) Set(s string) error {
	*v.value, *v.given = s, true
	return nil
}

func (v givenString) Type() string { return "string" }

// givenDuration reads a value as pflag's own duration flags do.
type givenDuration struct {
	value *time.Duration
	given *bool
}

// String is "0" for no duration, the default pflag's help leaves
// unsaid, as it does for its own duration flags.
func (v givenDuration) String() string {
	if *v.value == 0 {
		return "0"
	}
	return v.value.String()
}

func (v givenDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*v.value, *v.given = d, true
	return nil
}

func (v givenDuration) Type() string { return "duration" }
