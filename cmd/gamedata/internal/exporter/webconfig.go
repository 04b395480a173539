package exporter

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"

	"github.com/prometheus/exporter-toolkit/web"
	"go.yaml.in/yaml/v2"
	"golang.org/x/crypto/bcrypt"
)

// webConfig is what the exporter knows of its --web.config.file at
// start. The toolkit reads the file again on every connection and every
// request, so a changed certificate or password takes effect without a
// restart; what is kept here only decides the warning at start.
type webConfig struct {
	path string
	// tls: scrapes come over TLS. auth: a scraper proves who it is, with
	// basic auth or a client certificate the server verifies.
	tls, auth bool
}

// readWebConfig checks the file at path as the exporter toolkit will
// read it (its YAML, its bcrypt hashes, its certificates and keys), so a
// bad file stops the exporter before it listens. An empty path is no
// file: plain HTTP, as without the flag.
func readWebConfig(path string) (webConfig, error) {
	if path == "" {
		return webConfig{}, nil
	}
	if err := web.Validate(path); err != nil {
		return webConfig{}, fmt.Errorf("--web.config.file %s: %s; see docs/exporter.md for its format", path, webConfigProblem(path, err))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return webConfig{}, webConfigError(path, err)
	}
	var c web.Config
	if err := yaml.UnmarshalStrict(raw, &c); err != nil { // web.Validate read the same bytes
		return webConfig{}, webConfigError(path, err)
	}
	return webConfig{
		path: path,
		tls:  c.TLSConfig.IsEnabled(),
		auth: len(c.Users) > 0 || c.TLSConfig.ClientAuth == "RequireAndVerifyClientCert",
	}, nil
}

// webConfigError is err, of the file at path, as the exporter says it.
func webConfigError(path string, err error) error {
	return fmt.Errorf("--web.config.file %s: %s", path, webConfigProblem(path, err))
}

// webConfigProblem says what is wrong with the file at path without
// saying any part of a secret it holds: bcrypt's errors quote the first
// bytes of what should have been a hash (a password written in clear,
// perhaps), and the YAML decoder quotes a value it cannot place.
func webConfigProblem(path string, err error) string {
	var prefix bcrypt.InvalidHashPrefixError
	var version bcrypt.HashVersionTooNewError
	var cost bcrypt.InvalidCostError
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &prefix), errors.As(err, &version), errors.As(err, &cost), errors.Is(err, bcrypt.ErrHashTooShort):
		return `a password under basic_auth_users is not a bcrypt hash (htpasswd -nBC 10 "" | tr -d ':\n' makes one)`
	case errors.As(err, &pathErr) && pathErr.Path == path:
		return pathErr.Err.Error()
	}
	return redactQuoted(err.Error())
}

// serveOn serves srv on ln: through the exporter toolkit, with the TLS,
// client certificates and basic auth of the web configuration file, when
// there is one, and as plain HTTP otherwise. log receives what the
// toolkit says.
func (w webConfig) serveOn(srv *http.Server, ln net.Listener, log *slog.Logger) error {
	if w.path == "" {
		return srv.Serve(ln)
	}
	path := w.path
	err := web.Serve(ln, srv, &web.FlagConfig{WebConfigFile: &path}, log)
	// The toolkit reads the file again before it serves, and returns
	// what is wrong with one changed since readWebConfig in the words of
	// the YAML decoder and bcrypt, which quote it. The listener's errors
	// and the server's closing are not the file's.
	var netErr *net.OpError
	if err == nil || errors.Is(err, http.ErrServerClosed) || errors.As(err, &netErr) {
		return err
	}
	return webConfigError(path, err)
}

// exposure says, for the warning at start, who can scrape a listener at
// addr beyond loopback with this configuration, or "" when its scrapes
// need TLS and authentication both.
func (w webConfig) exposure(addr string) string {
	switch {
	case w.tls && w.auth:
		return ""
	case w.tls:
		return "over TLS without authentication: any machine that reaches " + addr + " can scrape it"
	case w.auth:
		return "with basic auth but without TLS: the password crosses the network in clear"
	}
	return "without TLS or authentication: any machine that reaches " + addr + " can scrape it"
}
