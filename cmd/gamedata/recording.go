package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/spf13/pflag"
)

// recordFlags are --record, --record-mode and --replay, which every
// command that calls the service takes: its requests and their answers
// recorded into a HAR file (gamedatatest's recorder, which scrubs them),
// or answered from one offline.
type recordFlags struct {
	Record     string
	RecordMode string
	Replay     string
	// recordGiven, modeGiven and replayGiven say which were given, so
	// that an empty file name is refused rather than taken for none.
	recordGiven, modeGiven, replayGiven bool
}

// register adds the flags to fl, bound to r.
func (r *recordFlags) register(fl *pflag.FlagSet) {
	r.RecordMode = string(gamedatatest.ModeNewEpisodes)
	fl.Var(givenString{&r.Record, &r.recordGiven}, "record", "record the requests to the service and their answers into this HAR file, scrubbed of credentials; saved when the command ends, even when it fails")
	fl.Var(givenString{&r.RecordMode, &r.modeGiven}, "record-mode", "what --record does: new_episodes (answer what the file holds from it, record the rest), once (record only into a file that does not exist yet), all (record everything anew) or none (answer from the file only)")
	fl.Var(givenString{&r.Replay, &r.replayGiven}, "replay", "answer from this HAR file, made by --record, offline: nothing is sent to the service")
}

// check refuses, before anything starts, --record and --replay with an
// empty name or together, --record-mode without --record, and a mode
// that is none of the four.
func (r recordFlags) check(command string) error {
	switch {
	case r.recordGiven && r.Record == "":
		return message.Usagef("%s --record: give the file to record into", command)
	case r.replayGiven && r.Replay == "":
		return message.Usagef("%s --replay: give the file to replay", command)
	case r.Record != "" && r.Replay != "":
		return message.Usagef("%s --record and --replay: give one; --record writes the file, --replay reads it", command)
	case r.modeGiven && r.Record == "":
		return message.Usagef("%s --record-mode: it says what --record does; give --record FILE too", command)
	}
	if _, err := gamedatatest.ParseMode(r.RecordMode); err != nil || r.RecordMode == "" {
		return message.Usagef("%s --record-mode %q: want new_episodes, once, all or none", command, r.RecordMode)
	}
	return nil
}

// verb is the flag in force: "record" or "replay".
func (r recordFlags) verb() string {
	if r.Replay != "" {
		return "replay"
	}
	return "record"
}

// recording is the file --record writes or --replay reads, open.
type recording struct {
	rec    *gamedatatest.Recording
	flag   string // "--record FILE" or "--replay FILE", as messages name it
	path   string
	replay bool // --replay's, which the twin serves offline
}

// openRecording opens the file r names, or returns nil when it names
// none. A file --replay names must be a recording; one --record names is
// read unless --record-mode is all (new_episodes and once answer from
// it), and need not exist.
func openRecording(r recordFlags) (*recording, error) {
	path, mode := r.Record, gamedatatest.Mode(r.RecordMode)
	if r.Replay != "" {
		path, mode = r.Replay, gamedatatest.ModeNone
	}
	if path == "" {
		return nil, nil
	}
	rc := &recording{flag: "--" + r.verb() + " " + path, path: path, replay: r.Replay != ""}
	rec, err := gamedatatest.OpenRecording(path, mode)
	var cred *gamedatatest.CredentialError
	switch {
	case errors.As(err, &cred):
		return nil, fmt.Errorf("%s: %s", rc.flag, credential(cred))
	case errors.Is(err, fs.ErrNotExist) && r.Replay != "":
		return nil, fmt.Errorf("%s: no such file; make it first with --record %s", rc.flag, path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s --record-mode none: no such file; record it first, without --record-mode", rc.flag)
	case err != nil:
		return nil, fmt.Errorf("%s: %s; give a file that --record made", rc.flag, rc.cause(err))
	}
	rc.rec = rec
	return rc, nil
}

// cause is err, the recorder's, without its prefix and the file's name,
// which the command's message says first.
func (rc *recording) cause(err error) string {
	msg := err.Error()
	for _, prefix := range []string{"gamedatatest: ", "save recording ", "recording ", rc.path + ": ", rc.path + ", "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return msg
}

// transport is next under --record, which records what next carries and
// answers what the file holds already; next itself otherwise.
func (rc *recording) transport(next http.RoundTripper) http.RoundTripper {
	if rc == nil || rc.replays() {
		return next
	}
	return rc.rec.Transport(next)
}

// replays reports whether the recording is --replay's, which the twin
// serves offline.
func (rc *recording) replays() bool { return rc != nil && rc.replay }

// end ends the command whose error is err, and returns its error: a
// request the recording held no answer for is its failure, whatever the
// command made of the 404 that answered it, and what --record recorded is
// saved, even when the command failed or was interrupted (whole exchanges
// only). A save that fails is the command's failure, or is said on
// errOut, on its own line, before the command's. A nil recording, of a
// command run without --record and --replay, returns err.
func (rc *recording) end(err error, errOut io.Writer) error {
	if rc == nil {
		return err
	}
	if keys := rc.rec.Unmatched(); len(keys) > 0 {
		err = rc.missed(keys)
	}
	if rc.replays() {
		return err
	}
	serr := rc.rec.Save()
	switch {
	case serr == nil:
		return err
	case err == nil:
		return rc.saveFailure(serr)
	}
	message.Line(errOut, "%s", rc.saveFailure(serr))
	return err
}

// missed is the failure of the requests of keys, their match keys, which
// the recording held no answer for.
func (rc *recording) missed(keys []string) error {
	more := ""
	if len(keys) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(keys)-1)
	}
	todo := "record it with --record " + rc.path + " in place of --replay"
	if !rc.replays() {
		todo = "record it with --record-mode new_episodes"
	}
	return fmt.Errorf("%s holds no answer for %s%s: %s", rc.flag, keys[0], more, todo)
}

// saveFailure is err, a failed save, in words that name the file and say
// what to do.
func (rc *recording) saveFailure(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return fmt.Errorf("%s: not saved: %v; give --record a file in a directory you can write", rc.flag, pathErr.Err)
	}
	var cred *gamedatatest.CredentialError
	if errors.As(err, &cred) {
		return fmt.Errorf("%s: not saved: %s", rc.flag, credential(cred))
	}
	cause := rc.cause(err)
	return fmt.Errorf("%s: not saved: %s", rc.flag, cause)
}

// credential says what cred found and what a command's user can do: the
// library's advice is an option of its own, which a command does not
// have, so the name is left out of the request, or removed from the file
// that held it.
func credential(cred *gamedatatest.CredentialError) string {
	todo := "leave it out of the request"
	if cred.InFile {
		todo = "remove it from the file"
	}
	return fmt.Sprintf("%s: the %s %q looks like a credential: %s, since a recording never keeps a credential", cred.Request, cred.Where, cred.Name, todo)
}
