// Package tlsacme gives `serve --https` its certificate: it obtains one by ACME for the public
// URL's host, keeps it (and the ACME account) in the data directory, renews it in the
// background without a restart, and keeps serving the cached certificate when a renewal fails
// (docs/deploy.md "HTTPS"). The ACME work is certmagic's (github.com/caddyserver/certmagic, the
// library inside Caddy); this package chooses its settings, bridges its logs to slog and
// exports the certificate's expiry as a metric.
package tlsacme

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/caddyserver/certmagic"
	"github.com/prometheus/client_golang/prometheus"
)

// LetsEncrypt is the default ACME directory.
const LetsEncrypt = certmagic.LetsEncryptProductionCA

// Options configure the certificate manager.
type Options struct {
	Host    string // the name the certificate is for: the public URL's host
	Storage string // directory for certificates, keys and the ACME account (in the data directory)
	CA      string // ACME directory URL; LetsEncrypt when empty
	// CARoot is a PEM file with the root(s) that sign the ACME server's own HTTPS certificate,
	// for a private CA; the system roots are used when empty.
	CARoot string
	Email  string // contact for the CA (expiry warnings); optional
	// HTTPPort and TLSPort are the ports this server answers HTTP-01 and TLS-ALPN-01
	// challenges on. A CA validates on 80 and 443; other values only make sense for a test CA
	// configured to use them.
	HTTPPort, TLSPort int
	// ListenHost is the host our challenge listeners are bound to ("" for all addresses), so
	// certmagic finds them in use and leaves the answering to our handlers.
	ListenHost string
	Log        *slog.Logger
	Registry   prometheus.Registerer

	// RenewCheckInterval is how often certificates are checked for renewal (certmagic's
	// default, 10 minutes, when zero); RenewalWindowRatio the share of a certificate's
	// lifetime left when it is renewed (1/3 when zero). Tests shorten both.
	RenewCheckInterval time.Duration
	RenewalWindowRatio float64
}

// Manager holds the certificate for one host.
type Manager struct {
	host   string
	log    *slog.Logger
	cache  *certmagic.Cache
	cfg    *certmagic.Config
	issuer *certmagic.ACMEIssuer
}

// New configures certificate management; nothing is fetched until Run.
func New(o Options) (*Manager, error) {
	if o.Host == "" {
		return nil, errors.New("no host name for the certificate (set --public-url)")
	}
	if !certmagic.SubjectQualifiesForPublicCert(o.Host) {
		return nil, fmt.Errorf("%q cannot get a certificate from a public CA (an IP address, localhost or an internal name); use a public DNS name in --public-url", o.Host)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.CA == "" {
		o.CA = LetsEncrypt
	}
	var roots *x509.CertPool
	if o.CARoot != "" {
		pem, err := os.ReadFile(o.CARoot)
		if err != nil {
			return nil, fmt.Errorf("--acme-ca-root: %w", err)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--acme-ca-root: no PEM certificate in %s", o.CARoot)
		}
	}
	m := &Manager{host: o.Host, log: o.Log}
	zl := zapLogger(o.Log)
	m.cache = certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert:   func(certmagic.Certificate) (*certmagic.Config, error) { return m.cfg, nil },
		RenewCheckInterval: o.RenewCheckInterval,
		Logger:             zl,
	})
	failures := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "frontdesk_tls_certificate_failures_total",
		Help: "Failed attempts to obtain or renew the HTTPS certificate (the cached one keeps being served).",
	})
	m.cfg = certmagic.New(m.cache, certmagic.Config{
		Storage:            &certmagic.FileStorage{Path: o.Storage},
		RenewalWindowRatio: o.RenewalWindowRatio,
		Logger:             zl,
		OnEvent: func(ctx context.Context, event string, data map[string]any) error {
			switch event {
			case "cert_obtained":
				m.log.Info("https certificate obtained", "host", m.host, "renewal", data["renewal"], "issuer", data["issuer"])
			case "cert_failed":
				failures.Inc()
				m.log.Error("https certificate could not be obtained or renewed; the cached one, if any, is still served",
					"host", m.host, "renewal", data["renewal"], "err", data["error"])
			}
			return nil
		},
	})
	m.issuer = certmagic.NewACMEIssuer(m.cfg, certmagic.ACMEIssuer{
		CA: o.CA, Email: o.Email, Agreed: true, TrustedRoots: roots,
		AltHTTPPort: o.HTTPPort, AltTLSALPNPort: o.TLSPort, ListenHost: o.ListenHost,
		Logger: zl,
	})
	m.cfg.Issuers = []certmagic.Issuer{m.issuer}
	if o.Registry != nil {
		o.Registry.MustRegister(failures, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "frontdesk_tls_certificate_expiry_timestamp_seconds",
			Help:        "When the HTTPS certificate being served expires (Unix seconds); 0 while there is none.",
			ConstLabels: prometheus.Labels{"host": o.Host},
		}, m.expiry))
	}
	return m, nil
}

// Run starts managing the certificate: a cached one is loaded from storage and served at once,
// a missing or expiring one is obtained in the background (retried with backoff, logged, never
// fatal). It returns when ctx is done.
func (m *Manager) Run(ctx context.Context) error {
	if err := m.cfg.ManageAsync(ctx, []string{m.host}); err != nil {
		return fmt.Errorf("https certificate for %s: %w", m.host, err)
	}
	<-ctx.Done()
	m.cache.Stop()
	return nil
}

// TLSConfig serves the managed certificate (and answers TLS-ALPN-01 challenges).
func (m *Manager) TLSConfig() *tls.Config {
	c := m.cfg.TLSConfig()
	c.NextProtos = append([]string{"h2", "http/1.1"}, c.NextProtos...)
	c.MinVersion = tls.VersionTLS12
	return c
}

// HTTPHandler answers HTTP-01 challenges and hands every other request to next.
func (m *Manager) HTTPHandler(next http.Handler) http.Handler {
	return m.issuer.HTTPChallengeHandler(next)
}

// Certificate is the certificate being served, nil when there is none yet. It reads certmagic's
// cache rather than asking GetCertificate as a handshake would: without a certificate that path
// logs the ClientHello's connection, which a hello made up here does not have (a nil
// dereference that made every /metrics scrape panic until the first certificate arrived).
func (m *Manager) Certificate() *x509.Certificate {
	var leaf *x509.Certificate
	for _, c := range m.cache.AllMatchingCertificates(m.host) {
		if c.Leaf != nil && (leaf == nil || c.Leaf.NotAfter.After(leaf.NotAfter)) {
			leaf = c.Leaf
		}
	}
	return leaf
}

func (m *Manager) expiry() float64 {
	if leaf := m.Certificate(); leaf != nil {
		return float64(leaf.NotAfter.Unix())
	}
	return 0
}
