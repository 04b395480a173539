package exporter

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"go.yaml.in/yaml/v3"
	"golang.org/x/crypto/bcrypt"
)

// TestPrometheusScrapesOverTLSWithBasicAuth serves the exporter with
// docs/exporter.md's web configuration (this test's certificate and
// hash) and starts a real Prometheus with the page's scrape configuration
// (this test's CA, password file and target): Prometheus scrapes the
// exporter over TLS with basic auth and stores the twin's value.
func TestPrometheusScrapesOverTLSWithBasicAuth(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed; apt-get install -y prometheus to run this end-to-end test")
	}
	p := newPKI(t, "gamedata test CA")
	const password = "correct horse battery staple"
	web, user := webFile(t, p, password, nil)
	twin := newTwin(t, gamedatatest.WithSize(30, 0, 3))
	game := firstWithPlayers(t, twin)
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{Kinds: []string{game.Kind}, Every: time.Hour, WebConfigFile: web})
	poll(t, e)
	scrapes := signalScrapes(e) // only a scrape that passed the toolkit's checks reaches it
	target, stop := serve(t, e)

	passwordFile := filepath.Join(t.TempDir(), "gamedata.password")
	writeFile(t, passwordFile, []byte(password))
	config := docScrapeConfig(t, user, p.caFile, passwordFile, target)
	promAddr := freePort(t)
	exited := startPrometheusWith(t, bin, config, promAddr)
	at := scrapedInFull(t, promAddr, scrapes, exited, 1, e2eGuard)
	checkStoredPlayers(t, promAddr, game, at)
	if err := stop(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// docScrapeConfig is docs/exporter.md's scrape configuration for the
// exporter over TLS with basic auth, with the test's CA file, password
// file and target, and the quick scrapes of startPrometheus. Its user
// must be the web configuration's.
func docScrapeConfig(t *testing.T, user, caFile, passwordFile, target string) string {
	t.Helper()
	cfg := docYAML(t, "# prometheus.yml: the exporter over TLS with basic auth")
	jobs, _ := cfg["scrape_configs"].([]any)
	if len(jobs) != 1 {
		t.Fatalf("%s: the scrape configuration has %d jobs, want 1", exporterDoc, len(jobs))
	}
	job, _ := jobs[0].(map[string]any)
	tlsConfig, _ := job["tls_config"].(map[string]any)
	auth, _ := job["basic_auth"].(map[string]any)
	if tlsConfig == nil || auth == nil || auth["username"] != user {
		t.Fatalf("%s: the scrape configuration has tls_config %v and basic_auth %v, want the CA and the web configuration's user %s", exporterDoc, tlsConfig, auth, user)
	}
	tlsConfig["ca_file"] = caFile
	auth["password_file"] = passwordFile
	job["static_configs"] = []any{map[string]any{"targets": []any{target}}}
	delete(job, "scrape_interval")
	delete(job, "scrape_timeout")
	cfg["global"] = map[string]any{"scrape_interval": "250ms", "scrape_timeout": "200ms"}
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWebConfigRefuses serves the exporter with docs/exporter.md's web
// configuration: over TLS with the user and password, every path
// answers; without credentials, with a wrong password or user, or without
// TLS, none does, and nothing the client sent reaches the log.
func TestWebConfigRefuses(t *testing.T) {
	p := newPKI(t, "gamedata test CA")
	const password = "correct horse battery staple"
	web, user := webFile(t, p, password, nil)
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, logs, _ := newExporter(t, newClient(t, twin.URL), Config{WebConfigFile: web})
	poll(t, e)
	addr, _ := serve(t, e)
	https, plain := httpsClient(p), &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	const steering = "\x1b[31m\u202eroot" // a user name that would steer a terminal
	for _, path := range []string{"/metrics", "/healthz", "/"} {
		for _, tc := range []struct {
			name           string
			client         *http.Client
			scheme         string
			user, password string
			want           int
		}{
			{"user and password", https, "https", user, password, http.StatusOK},
			{"no credentials", https, "https", "", "", http.StatusUnauthorized},
			{"wrong password", https, "https", user, password + "!", http.StatusUnauthorized},
			{"unknown user", https, "https", "admin", password, http.StatusUnauthorized},
			{"steering user", https, "https", steering, password, http.StatusUnauthorized},
			{"no TLS", plain, "http", user, password, http.StatusBadRequest},
		} {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				status, body, err := get(tc.client, tc.scheme+"://"+addr+path, tc.user, tc.password)
				if err != nil {
					t.Fatal(err)
				}
				if status != tc.want {
					t.Errorf("%s: %d %s, want %d", path, status, body, tc.want)
				}
				if served := strings.Contains(body, "gamedata_") || strings.Contains(body, "ok"); served != (status == http.StatusOK) {
					t.Errorf("%s: %d, and the body %q", path, status, body)
				}
			})
		}
	}
	if strings.ContainsAny(logs.String(), "\x1b\u202e") || strings.Contains(logs.String(), "root") {
		t.Errorf("what a client sent reached the log:\n%s", logs)
	}
}

// TestWebConfigClientCertificates requires and verifies client
// certificates: a client with one that the configured CA signed is
// served, one without a certificate or with another CA's fails the TLS
// handshake.
func TestWebConfigClientCertificates(t *testing.T) {
	p := newPKI(t, "gamedata test CA")
	const password = "correct horse battery staple"
	web, user := webFile(t, p, password, map[string]any{"client_auth_type": "RequireAndVerifyClientCert", "client_ca_file": p.caFile})
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{WebConfigFile: web})
	addr, _ := serve(t, e)
	other := newPKI(t, "another CA")
	for _, tc := range []struct {
		name   string
		certs  []tls.Certificate
		served bool
	}{
		{"the CA's certificate", []tls.Certificate{p.client}, true},
		{"no certificate", nil, false},
		{"another CA's certificate", []tls.Certificate{other.client}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, err := get(httpsClient(p, tc.certs...), "https://"+addr+"/metrics", user, password)
			if tc.served && (err != nil || status != http.StatusOK) {
				t.Errorf("%d, %v; want 200", status, err)
			}
			if !tc.served && err == nil {
				t.Errorf("%d; want a failed TLS handshake", status)
			}
		})
	}
}

// TestWebConfigIsReadAgain changes the file while the exporter runs: a
// new password takes effect at the next request, the old one is refused;
// a file made bad fails the requests and connections after it, and the
// log says so without the value the YAML decoder quotes (here the
// password, written where a user's hash should be).
func TestWebConfigIsReadAgain(t *testing.T) {
	p := newPKI(t, "gamedata test CA")
	web, user := webFile(t, p, "first password", nil)
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{WebConfigFile: web})
	logs := newLineLog()
	e.log = slog.New(slog.NewTextHandler(logs, nil))
	addr, _ := serve(t, e)
	url := "https://" + addr + "/metrics"

	b, _, _ := webYAML(t, "second password", nil)
	replaceFile(t, web, b)
	kept := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: p.pool}}}
	for _, tc := range []struct {
		password string
		want     int
	}{{"first password", http.StatusUnauthorized}, {"second password", http.StatusOK}} {
		if status, _, err := get(kept, url, user, tc.password); err != nil || status != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.password, status, err, tc.want)
		}
	}

	const secret = "hunter2-in-clear"
	replaceFile(t, web, []byte("basic_auth_users: "+secret+"\n"))
	if status, _, err := get(kept, url, user, "second password"); err != nil || status != http.StatusInternalServerError {
		t.Errorf("a kept connection after the file went bad: %d, %v; want 500", status, err)
	}
	logs.waitFor(t, "Unable to parse configuration")
	if status, _, err := get(httpsClient(p), url, user, "second password"); err == nil {
		t.Errorf("a new connection after the file went bad: %d; want a failed TLS handshake", status)
	}
	logs.waitFor(t, "TLS handshake error")
	if strings.Contains(logs.String(), secret[:5]) {
		t.Errorf("the log quotes the file's value:\n%s", logs)
	}
}

// TestWebConfigBadFile refuses, before anything starts, a file that
// would not serve: the error names the file and what is wrong, and
// quotes no password, in whole or in part.
func TestWebConfigBadFile(t *testing.T) {
	p := newPKI(t, "gamedata test CA")
	const secret = "hunter2-in-clear"
	for _, tc := range []struct {
		name, yaml, says string
	}{
		{"no file", "", "no such file or directory"},
		{"unknown key", "tls_server_config:\n  cert: x\n  cert_fil: gamedata.crt\n", "field cert_fil not found"},
		{"password in clear", "basic_auth_users:\n  prometheus: " + secret + "\n", "a password under basic_auth_users is not a bcrypt hash"},
		{"password in clear, short", "basic_auth_users:\n  prometheus: h2\n", "is not a bcrypt hash"},
		{"password in clear, long", "basic_auth_users:\n  prometheus: " + strings.Repeat(secret, 4) + "\n", "is not a bcrypt hash"},
		{"password for the users", "basic_auth_users: " + secret + "\n", "cannot unmarshal"},
		{"no certificate file", "tls_server_config:\n  cert_file: missing.crt\n  key_file: gamedata.key\n", "failed to read cert_file"},
		{"no key", "tls_server_config:\n  cert_file: gamedata.crt\n", "missing one of key or key_file"},
		{"client CA without a policy", "tls_server_config:\n  cert_file: gamedata.crt\n  key_file: gamedata.key\n  client_ca_file: gamedata.crt\n", "without a Client Auth Policy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing.yml")
			if tc.yaml != "" {
				path = webConfigFile(t, p, tc.yaml)
			}
			_, err := New(newClient(t, "http://127.0.0.1:1"), Config{Every: time.Minute, MaxSeries: 1, WebConfigFile: path})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "--web.config.file "+path+": ") || !strings.Contains(msg, tc.says) {
				t.Errorf("%q; want it to name the file and say %q", msg, tc.says)
			}
			if strings.Contains(msg, secret[:5]) || strings.Contains(msg, "'h'") {
				t.Errorf("%q quotes the password", msg)
			}
		})
	}
}

// TestWebConfigMadeBadBeforeServe changes the file after New checked it
// and before Serve hands it to the toolkit: Serve's error names the file
// and quotes no password, in whole or in part, as New's does; a listener
// that fails is not blamed on the file.
func TestWebConfigMadeBadBeforeServe(t *testing.T) {
	p := newPKI(t, "gamedata test CA")
	const secret = "hunter2-in-clear"
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	for _, tc := range []struct {
		name, yaml, says string // yaml "": the file stays good, the listener is closed
	}{
		{"password in clear", "basic_auth_users:\n  prometheus: " + strings.Repeat(secret, 4) + "\n", "a password under basic_auth_users is not a bcrypt hash"},
		{"password for the users", "basic_auth_users: " + secret + "\n", "cannot unmarshal"},
		{"closed listener", "", "use of closed network connection"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			web, _ := webFile(t, p, "a password", nil)
			e, _, _ := newExporter(t, newClient(t, twin.URL), Config{WebConfigFile: web})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			if tc.yaml != "" {
				replaceFile(t, web, []byte(tc.yaml))
			} else {
				ln.Close()
			}
			err = e.Serve(guard(t), ln)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if blamed := strings.HasPrefix(msg, "--web.config.file "+web+": "); blamed != (tc.yaml != "") || !strings.Contains(msg, tc.says) {
				t.Errorf("%q; want it to say %q, and to name the file only when the file is at fault", msg, tc.says)
			}
			if strings.Contains(msg, secret[:5]) || strings.Contains(msg, "'h'") {
				t.Errorf("%q quotes the password", msg)
			}
		})
	}
}

// lineLog is a log the exporter writes while the test waits for a line.
type lineLog struct {
	logBuffer
	wrote chan struct{}
}

func newLineLog() *lineLog { return &lineLog{wrote: make(chan struct{}, 1)} }

func (l *lineLog) Write(p []byte) (int, error) {
	n, err := l.logBuffer.Write(p)
	select {
	case l.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// waitFor returns once the log holds s, and fails the test when the
// guard runs out first.
func (l *lineLog) waitFor(t *testing.T, s string) {
	t.Helper()
	ctx := guard(t)
	for !strings.Contains(l.String(), s) {
		select {
		case <-l.wrote:
		case <-ctx.Done():
			t.Fatalf("no %q in the log:\n%s", s, l)
		}
	}
}

// exporterDoc is the page whose web configuration and scrape
// configuration the tests serve and scrape with.
var exporterDoc = filepath.Join("..", "..", "..", "..", "docs", "exporter.md")

// docYAML returns the fenced yaml block of docs/exporter.md whose first
// line is first, decoded.
func docYAML(t testing.TB, first string) map[string]any {
	t.Helper()
	doc, err := os.ReadFile(exporterDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```yaml\n"+first+"\n")
	if !ok {
		t.Fatalf("%s: no yaml block beginning %q", exporterDoc, first)
	}
	block, _, _ = strings.Cut(block, "```")
	var m map[string]any
	if err := yaml.Unmarshal([]byte(block), &m); err != nil {
		t.Fatalf("%s: the block beginning %q: %v", exporterDoc, first, err)
	}
	return m
}

// pki is a throwaway CA and what it signed, written as PEM files.
type pki struct {
	dir        string
	caFile     string
	pool       *x509.CertPool
	serverCert tls.Certificate // for 127.0.0.1 and localhost
	serverPEM  [2][]byte       // its certificate and key
	client     tls.Certificate
	ca         *x509.Certificate
	caKey      *ecdsa.PrivateKey
}

// newPKI makes a CA, a server certificate for loopback and a client
// certificate, all signed by it, with the CA's certificate at p.caFile.
func newPKI(t testing.TB, cn string) *pki {
	t.Helper()
	p := &pki{dir: t.TempDir(), pool: x509.NewCertPool()}
	p.caKey = newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &p.caKey.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	if p.ca, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	p.pool.AddCert(p.ca)
	p.caFile = filepath.Join(p.dir, "ca.crt")
	writeFile(t, p.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	p.serverCert, p.serverPEM = p.sign(t, x509.ExtKeyUsageServerAuth)
	p.client, _ = p.sign(t, x509.ExtKeyUsageClientAuth)
	return p
}

// sign makes a certificate for loopback with usage, signed by the CA.
func (p *pki) sign(t testing.TB, usage x509.ExtKeyUsage) (tls.Certificate, [2][]byte) {
	t.Helper()
	key := newKey(t)
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "gamedata test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	files := [2][]byte{
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}
	cert, err := tls.X509KeyPair(files[0], files[1])
	if err != nil {
		t.Fatal(err)
	}
	return cert, files
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// replaceFile replaces path by b at once, as an operator's tool that
// renames a new file into place does, so a reader never sees half of it.
func replaceFile(t testing.TB, path string, b []byte) {
	t.Helper()
	tmp := path + ".new"
	writeFile(t, tmp, b)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// hash is password's bcrypt hash, at the least cost: the tests check
// what is compared, not how slowly.
func hash(t testing.TB, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

// webFile writes docs/exporter.md's web configuration with the test's
// own hash (webYAML) in a directory of its own, with p's server
// certificate and key beside it at the names it gives, and returns its
// path and the documented user.
func webFile(t testing.TB, p *pki, password string, extra map[string]any) (path, user string) {
	t.Helper()
	dir := t.TempDir()
	b, user, files := webYAML(t, password, extra)
	for i, name := range files {
		writeFile(t, filepath.Join(dir, name), p.serverPEM[i])
	}
	path = filepath.Join(dir, "web.yml")
	writeFile(t, path, b)
	return path, user
}

// webYAML is docs/exporter.md's web configuration with basic_auth_users
// holding the documented user with a hash of password, and extra set in
// tls_server_config; files are the names it gives the certificate and
// the key, which are read beside it.
func webYAML(t testing.TB, password string, extra map[string]any) (b []byte, user string, files [2]string) {
	t.Helper()
	cfg := docYAML(t, "# /etc/gamedata/web.yml")
	server, _ := cfg["tls_server_config"].(map[string]any)
	for i, key := range []string{"cert_file", "key_file"} {
		files[i], _ = server[key].(string)
		if files[i] == "" || filepath.IsAbs(files[i]) {
			t.Fatalf("%s: the web configuration's %s is %q, not a path beside the file", exporterDoc, key, files[i])
		}
	}
	for k, v := range extra {
		server[k] = v
	}
	users, _ := cfg["basic_auth_users"].(map[string]any)
	if len(users) != 1 {
		t.Fatalf("%s: the web configuration's basic_auth_users: %v, want one user", exporterDoc, users)
	}
	for u := range users {
		user = u
		users[u] = hash(t, password)
	}
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b, user, files
}

// webConfigFile writes yaml as a web configuration file, with p's server
// certificate and key beside it as gamedata.crt and gamedata.key, and
// returns its path.
func webConfigFile(t *testing.T, p *pki, yaml string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "gamedata.crt"), p.serverPEM[0])
	writeFile(t, filepath.Join(dir, "gamedata.key"), p.serverPEM[1])
	path := filepath.Join(dir, "web.yml")
	writeFile(t, path, []byte(yaml))
	return path
}

// httpsClient trusts p's CA only and presents certs; it keeps no
// connection, so each request makes a TLS connection of its own.
func httpsClient(p *pki, certs ...tls.Certificate) *http.Client {
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: p.pool, Certificates: certs},
		DisableKeepAlives: true,
	}}
}

// get asks url with basic auth, when user is not empty, and returns the
// status and body, or the error of a connection that failed.
func get(c *http.Client, url, user, password string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, err = body.ReadFrom(resp.Body)
	return resp.StatusCode, body.String(), err
}
