package exporter

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// shutdownGrace bounds how long scrapes in flight may take to finish once
// the exporter is asked to stop.
const shutdownGrace = 5 * time.Second

// Serve serves Handler on ln (through the web configuration file, when
// cfg.WebConfigFile names one) and polls every cfg.Every until ctx ends,
// then shuts the server down (scrapes in flight finish, for shutdownGrace
// at most), stops the poller and returns once every goroutine it started
// has ended. It returns nil after ctx ended, the server's error when it
// failed first, or Run's *KindError, after the same shutdown, when the
// service does not list a --kind.
func (e *Exporter) Serve(ctx context.Context, ln net.Listener) error {
	h := e.Handler()
	if e.wrap != nil {
		h = e.wrap(h)
	}
	webLog := slog.New(safeHandler{e.log.Handler()})
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(webLog.Handler(), slog.LevelWarn),
	}
	var wg sync.WaitGroup
	defer wg.Wait() // after stopPolling, deferred below
	pollCtx, stopPolling := context.WithCancel(ctx)
	defer stopPolling()
	served := make(chan error, 1)
	ran := make(chan error, 1)
	wg.Go(func() { served <- e.web.serveOn(srv, ln, webLog) })
	wg.Go(func() { ran <- e.Run(pollCtx) })
	addr := ln.Addr().String()
	e.log.Info("serving /metrics, /healthz and /", "address", addr, "every", e.cfg.Every)
	if exposed := e.web.exposure(addr); exposed != "" && !loopback(ln.Addr()) {
		e.log.Warn("listening beyond loopback "+exposed+"; choose a loopback --listen, such as "+DefaultListen+
			", or a --web.config.file with TLS and basic auth, unless that is meant", "address", addr)
	}

	var err error // Run's, which is nil when ctx ended
	select {
	case failed := <-served:
		return failed // never ErrServerClosed: nothing else closes it
	case err = <-ran:
	case <-ctx.Done():
	}
	stopPolling()
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if shut := srv.Shutdown(shutdownCtx); shut != nil {
		srv.Close() // scrapes that outlived the grace: cut them
		err = cmp.Or(err, shut)
	}
	if served := <-served; !errors.Is(served, http.ErrServerClosed) {
		err = cmp.Or(err, served)
	}
	e.log.Info("stopped")
	return err
}

// loopback reports whether a is reachable from this machine only: a
// loopback TCP address, or no TCP address at all (a Unix socket).
func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return !ok || tcp.IP.IsLoopback()
}
