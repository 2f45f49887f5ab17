package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	pebbledb "github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"
)

// publicHost is the public URL's host in the HTTPS test: a real-looking DNS name (a public CA
// refuses localhost) that a DNS server run by the test resolves to 127.0.0.1.
const publicHost = "frontdesk.test"

// pebbleCA is a real ACME server (Let's Encrypt's Pebble) running in this process on loopback.
// It validates challenges for real: HTTP-01 and TLS-ALPN-01 connections to our ports, after
// resolving the name through the test's DNS server.
type pebbleCA struct {
	DirURL   string
	RootFile string // PEM of the root that signs Pebble's own HTTPS certificate (--acme-ca-root)
	issuing  *x509.CertPool
	srv      *httptest.Server
}

func startPebble(t *testing.T, httpPort, tlsPort int) *pebbleCA {
	t.Helper()
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")      // validate at once instead of after a random sleep
	t.Setenv("PEBBLE_WFE_NONCEREJECT", "0") // no deliberately rejected nonces
	logger := log.New(testWriter{t}, "pebble ", 0)
	store := pebbledb.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "test", ValidityPeriod: 3600}})
	validator := va.New(logger, httpPort, tlsPort, false, startDNS(t), store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 1, 1)
	srv := httptest.NewTLSServer(front.Handler())
	root := filepath.Join(t.TempDir(), "pebble-https-root.pem")
	if err := os.WriteFile(root, pemOf(srv.Certificate()), 0o600); err != nil {
		t.Fatal(err)
	}
	issuing := x509.NewCertPool()
	issuing.AddCert(authority.GetRootCert(0).Cert)
	return &pebbleCA{DirURL: srv.URL + wfe.DirectoryPath, RootFile: root, issuing: issuing, srv: srv}
}

// startDNS answers A queries for publicHost with 127.0.0.1 and every other query with an
// empty answer (no AAAA, no CAA records), over TCP (which Pebble's resolver uses).
func startDNS(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{Listener: ln, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		for _, question := range q.Question {
			if question.Qtype == dns.TypeA && strings.EqualFold(question.Name, publicHost+".") {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: question.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60},
					A: net.IPv4(127, 0, 0, 1)})
			}
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	return ln.Addr().String()
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func pemOf(c *x509.Certificate) []byte {
	return []byte("-----BEGIN CERTIFICATE-----\n" + wrap64(c.Raw) + "-----END CERTIFICATE-----\n")
}

func wrap64(der []byte) string {
	s := base64Std(der)
	var b strings.Builder
	for len(s) > 64 {
		b.WriteString(s[:64] + "\n")
		s = s[64:]
	}
	return b.String() + s + "\n"
}

// freePort finds a loopback port nobody listens on (Pebble must know our ports before we
// listen on them).
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// httpsClient reaches publicHost on loopback and trusts only Pebble's issuing root. Every
// request opens a new connection, so each sees the certificate served at that moment.
func httpsClient(roots *x509.CertPool) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			DisableKeepAlives: true,
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				host, port, _ := net.SplitHostPort(addr)
				if host == publicHost {
					addr = net.JoinHostPort("127.0.0.1", port)
				}
				return dialer.DialContext(ctx, network, addr)
			},
		},
	}
}

// servedCert is the certificate the server presents on a new connection, nil if none works.
func servedCert(client *http.Client, url string) (*x509.Certificate, *http.Response) {
	res, err := client.Get(url)
	if err != nil {
		return nil, nil
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.TLS == nil || len(res.TLS.PeerCertificates) == 0 {
		return nil, res
	}
	return res.TLS.PeerCertificates[0], res
}

// startHTTPS runs serve --https in-process against the CA with the given renewal settings.
func startHTTPS(t *testing.T, dir, caURL, caRoot string, httpPort, tlsPort int, renewCheck time.Duration, ratio float64) *inProcess {
	t.Helper()
	p := &inProcess{logs: &lockedBuffer{}, listening: map[string]string{}}
	env := Env{Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: p.logs, Now: time.Now}
	cfg, err := parseServeConfig(env, []string{"--data", dir, "--https",
		"--public-url", "https://" + publicHost + ":" + strconv.Itoa(tlsPort),
		"--https-addr", "127.0.0.1:" + strconv.Itoa(tlsPort), "--http-addr", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--acme-ca", caURL, "--acme-ca-root", caRoot, "--acme-email", "owner@example.com", "--metrics-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.acmeRenewCheck, cfg.acmeRenewRatio = renewCheck, ratio
	ready := make(chan string, 1)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	env.Ready = func(addr string) { ready <- addr }
	env.Listening = func(name, addr string) { p.listening[name] = addr }
	go func() { done <- serveWith(ctx, env, cfg) }()
	p.stop = func() int {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
			return 1
		}
		return 0
	}
	select {
	case addr := <-ready:
		p.URL = "https://" + addr
	case err := <-done:
		t.Fatalf("serve --https exited before it was ready: %v\n%s", err, p.logs)
	case <-time.After(60 * time.Second):
		t.Fatalf("serve --https not ready after 60 s:\n%s", p.logs)
	}
	return p
}

// Built-in HTTPS end to end against a real ACME server on loopback: Pebble issues a
// certificate after validating our challenge listeners; an HTTPS request to the public host
// succeeds with it; HTTP redirects to HTTPS on the public URL; HSTS is sent; a renewal is
// triggered and its certificate served without a restart; the expiry metric tracks the served
// certificate. Then the CA goes away: a restart serves the cached certificate (nothing is
// issued again), and failing renewals are logged and counted while it keeps being served.
func TestHTTPSWithACME(t *testing.T) {
	dir := newDataDir(t)
	httpPort, tlsPort := freePort(t), freePort(t)
	pebble := startPebble(t, httpPort, tlsPort)
	// Renewal is checked every 300 ms and due once 0.01% of the hour-long lifetime has
	// passed, so the first certificate is renewed about a second after it is issued.
	srv := startHTTPS(t, dir, pebble.DirURL, pebble.RootFile, httpPort, tlsPort, 300*time.Millisecond, 0.9997)
	client := httpsClient(pebble.issuing)
	home := "https://" + publicHost + ":" + strconv.Itoa(tlsPort)

	var first *x509.Certificate
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", srv.logs)
		}
	})
	waitUntil(t, 60*time.Second, "a certificate from Pebble served for "+publicHost, func() bool {
		c, res := servedCert(client, home+"/readyz")
		first = c
		return c != nil && res.StatusCode == http.StatusOK
	})
	if err := first.VerifyHostname(publicHost); err != nil {
		t.Fatalf("served certificate: %v", err)
	}
	_, res := servedCert(client, home+"/login")
	if res == nil || res.StatusCode != http.StatusOK || res.Header.Get("Strict-Transport-Security") != "max-age=31536000" {
		t.Fatalf("GET /login over HTTPS: %v, HSTS %q", res, res.Header.Get("Strict-Transport-Security"))
	}

	// HTTP redirects to the same path on the public URL, whatever Host the request carried.
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:"+strconv.Itoa(httpPort)+"/bookings?day=2026-11-23", nil)
	req.Host = "evil.example"
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if want := home + "/bookings?day=2026-11-23"; res.StatusCode != http.StatusPermanentRedirect || res.Header.Get("Location") != want {
		t.Errorf("plain HTTP: got %d to %q, want 308 to %q", res.StatusCode, res.Header.Get("Location"), want)
	}

	// A renewal happens and is served by the same running process.
	var renewed *x509.Certificate
	waitUntil(t, 60*time.Second, "a renewed certificate served without a restart", func() bool {
		renewed, _ = servedCert(client, home+"/healthz")
		return renewed != nil && renewed.SerialNumber.Cmp(first.SerialNumber) != 0
	})
	if !strings.Contains(srv.logs.String(), `"renewal":true`) {
		t.Errorf("no renewal in the log:\n%s", srv.logs)
	}
	expiryMetric := func(p *inProcess) string {
		return metricLine(t, "http://"+p.listening["metrics"]+"/metrics", "frontdesk_tls_certificate_expiry_timestamp_seconds")
	}
	// The expiry metric is the served certificate's (renewals every second or so move it by
	// seconds; it would be 0 without a certificate).
	if got, served := metricValue(t, expiryMetric(srv)), renewedOrLater(t, client, home).NotAfter; math.Abs(got-float64(served.Unix())) > 60 {
		t.Errorf("expiry metric %v, want about %d (the served certificate's NotAfter)", got, served.Unix())
	}
	if code := srv.stop(); code != 0 {
		t.Fatalf("serve stopped with %d", code)
	}

	// The CA goes away. A restart serves the cached certificate at once.
	pebble.srv.Close()
	cached := lastCertInStorage(t, dir)
	srv = startHTTPS(t, dir, pebble.DirURL, pebble.RootFile, httpPort, tlsPort, 300*time.Millisecond, 0.9997)
	var got *x509.Certificate
	waitUntil(t, 30*time.Second, "the cached certificate served after a restart", func() bool {
		got, _ = servedCert(client, home+"/healthz")
		return got != nil
	})
	if got.SerialNumber.Cmp(cached.SerialNumber) != 0 {
		t.Errorf("after the restart served serial %v, want the cached %v", got.SerialNumber, cached.SerialNumber)
	}
	// Renewals now fail: logged, counted, never fatal, and the cached certificate stays.
	waitUntil(t, 60*time.Second, "a failed renewal logged and counted", func() bool {
		return strings.Contains(srv.logs.String(), "could not be obtained or renewed") &&
			!strings.HasSuffix(metricLine(t, "http://"+srv.listening["metrics"]+"/metrics", "frontdesk_tls_certificate_failures_total"), " 0")
	})
	if still, _ := servedCert(client, home+"/readyz"); still == nil || still.SerialNumber.Cmp(cached.SerialNumber) != 0 {
		t.Errorf("after failed renewals the server does not serve the cached certificate (got %v)", still)
	}
	if got := metricValue(t, expiryMetric(srv)); got != float64(cached.NotAfter.Unix()) {
		t.Errorf("expiry metric after the restart %v, want the cached certificate's %d", got, cached.NotAfter.Unix())
	}
}

func renewedOrLater(t *testing.T, client *http.Client, home string) *x509.Certificate {
	t.Helper()
	c, _ := servedCert(client, home+"/healthz")
	if c == nil {
		t.Fatal("no certificate served")
	}
	return c
}

// lastCertInStorage reads the certificate certmagic keeps for publicHost in the data directory.
func lastCertInStorage(t *testing.T, dir string) *x509.Certificate {
	t.Helper()
	var found *x509.Certificate
	filepath.WalkDir(filepath.Join(dir, "certificates"), func(path string, e os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, publicHost+".crt") {
			raw, _ := os.ReadFile(path)
			found = parsePEMCert(t, raw)
		}
		return nil
	})
	if found == nil {
		t.Fatalf("no certificate for %s stored under %s", publicHost, filepath.Join(dir, "certificates"))
	}
	return found
}

func metricLine(t *testing.T, url, name string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, name) {
			return line
		}
	}
	return ""
}

// metricValue is the number at the end of a metric line.
func metricValue(t *testing.T, line string) float64 {
	t.Helper()
	i := strings.LastIndexByte(line, ' ')
	v, err := strconv.ParseFloat(line[i+1:], 64)
	if err != nil {
		t.Fatalf("metric line %q: %v", line, err)
	}
	return v
}

// waitUntil polls cond every 100 ms until it holds or d passes.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
