// Package twin serves the twin of the service (gamedatatest) as a process
// of its own, so that a command's memory is measured apart from the
// twin's (bench/memory.sh): the command's --twin serves the twin inside
// the command's own process, and at its default size only. It is a test,
// not a program, so that nothing of it is built into the command.
package twin

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestServe serves a twin of $GAMEDATA_TWIN_PACKAGES packages, says its
// URL on stdout and serves until SIGTERM or Ctrl-C. Without the variable
// it skips: there is nothing to test here.
func TestServe(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("GAMEDATA_TWIN_PACKAGES"))
	if err != nil || n <= 0 {
		t.Skip("GAMEDATA_TWIN_PACKAGES is not a number of packages: no twin to serve")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := gamedatatest.NewServer(gamedatatest.WithNow(time.Now()),
		gamedatatest.WithSize(n, gamedatatest.DefaultServers, gamedatatest.DefaultOrganizations))
	defer s.Close()
	fmt.Println(s.URL)
	<-ctx.Done()
}
