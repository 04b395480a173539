// Command gamedata reads the public data service of a game platform from a
// shell: directories, records, searches, activity history and analytics
// reports as tables, CSV, JSON or NDJSON; exports with progress that a
// Ctrl-C leaves valid and --resume continues; charts; and a resumable sync
// into SQLite that grows a series longer than the service's window.
//
// Without --base-url (or GAMEDATA_BASE_URL) it runs against the in-process
// twin of the service, offline, and says so on stderr. Run "gamedata help"
// for the commands and "gamedata help COMMAND" for one.
//
// Exit status: 0 on success, 1 on a failure, 2 on bad usage, 130 when an
// interrupt cut a command short (watch and exporter, which run until one,
// exit 0).
//
// Each command lives in a file of its own (list.go, export.go, …) as an
// options struct, a newCmdX function that parses flags into it, and a
// run function that does the work: newCmdX takes a stand-in for the run
// function, so a test can stop after flag parsing and read the options.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// memoryLimit is the heap the runtime keeps the command under, working
// harder at collecting as it nears it, unless $GOMEMLIMIT says otherwise:
// every body is bounded (32 MB), but a command that polls (watch,
// exporter) reads one after another, and without a limit the garbage of
// bodies already dropped lets the heap grow to twice what is live.
const memoryLimit = 128 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
