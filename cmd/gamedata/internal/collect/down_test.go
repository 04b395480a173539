package collect

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cutProxy forwards TCP connections to a server until cut, after which
// nothing listens at its address: a service that goes away, which
// neither the twin nor its faults can be (their listener stays open).
type cutProxy struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
	once  sync.Once
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &cutProxy{l: l}
	t.Cleanup(p.cut)
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { io.Copy(out, in); out.Close() }()
			go func() { io.Copy(in, out); in.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) url() string { return "http://" + p.l.Addr().String() }

// cut closes the listener and every connection.
func (p *cutProxy) cut() {
	p.once.Do(func() {
		p.l.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
}

// A service that goes away during the details ends the run at the
// first failure that says so: that failure is recorded, the items not
// yet fetched are left for the next run (not recorded one by one), the
// records fetched before are kept, and no later stage is tried.
func TestServiceGoneMidRun(t *testing.T) {
	t.Parallel()
	twin := smallTwin(t)
	proxy := newCutProxy(t, strings.TrimPrefix(twin.URL, "http://"))
	var seen int
	var mu sync.Mutex
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Match: func(r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/api/packages/") {
			if seen++; seen == 6 { // some records fetched, most still due
				proxy.cut()
			}
		}
		return false
	}})
	c, err := gamedata.NewClient(proxy.url(), append([]gamedata.Option{gamedata.WithCache(nil)}, fastRetries...)...)
	require.NoError(t, err)
	db, read := sqliteDB(t)
	s, err := Run(context.Background(), c, db, options("game", "24h", at(start)))
	var op *net.OpError
	require.True(t, errors.As(err, &op), "the service's own error, for the command to say: %v", err)
	assert.Equal(t, "dial", op.Op)
	assert.Equal(t, 1, s.Failed, "one failure says it; the rest are due next run")
	assert.Len(t, failures(t, read, s.Run), 1)
	assert.Positive(t, s.Details, "what was fetched before is kept")
	assert.Equal(t, s.Details, query[int](t, read, `SELECT COUNT(*) FROM packages`))
	assert.Zero(t, s.Reports)
	assert.Zero(t, s.Points)
}
