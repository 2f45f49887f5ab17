package app

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"frontdesk/app/systemd"
	"frontdesk/app/tlsacme"
)

// opsConfig is how serve runs on a real server (docs/deploy.md): built-in HTTPS, the metrics
// listener. Flags with FRONTDESK_* fallbacks, like every other.
type opsConfig struct {
	HTTPS      bool
	HTTPSAddr  string
	HTTPAddr   string
	ACMECA     string
	ACMECARoot string
	ACMEEmail  string
	// MetricsAddr serves /metrics on its own listener; "" = no metrics endpoint. Never on
	// the public listener: metrics name routes, queue depths and versions.
	MetricsAddr string

	// Not flags: tests shorten certificate renewal (tlsacme.Options).
	acmeRenewCheck time.Duration
	acmeRenewRatio float64
}

func addOpsFlags(fs *flagSet, env Env, c *opsConfig) {
	fs.BoolVar(&c.HTTPS, "https", envBool(env, "FRONTDESK_HTTPS", false), "serve HTTPS with a certificate obtained by ACME for --public-url's host; HTTP on --http-addr redirects (env FRONTDESK_HTTPS)")
	fs.StringVar(&c.HTTPSAddr, "https-addr", envString(env, "FRONTDESK_HTTPS_ADDR", ":443"), "HTTPS listen address with --https (env FRONTDESK_HTTPS_ADDR)")
	fs.StringVar(&c.HTTPAddr, "http-addr", envString(env, "FRONTDESK_HTTP_ADDR", ":80"), "HTTP listen address with --https: ACME challenges and redirects to HTTPS (env FRONTDESK_HTTP_ADDR)")
	fs.StringVar(&c.ACMECA, "acme-ca", envString(env, "FRONTDESK_ACME_CA", tlsacme.LetsEncrypt), "ACME directory URL of the certificate authority (env FRONTDESK_ACME_CA)")
	fs.StringVar(&c.ACMECARoot, "acme-ca-root", env.Getenv("FRONTDESK_ACME_CA_ROOT"), "PEM file of the root that signs the ACME server's HTTPS certificate, for a private CA (env FRONTDESK_ACME_CA_ROOT)")
	fs.StringVar(&c.ACMEEmail, "acme-email", env.Getenv("FRONTDESK_ACME_EMAIL"), "contact email given to the certificate authority (env FRONTDESK_ACME_EMAIL)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", env.Getenv("FRONTDESK_METRICS_ADDR"), "serve Prometheus /metrics on this address only, e.g. 127.0.0.1:9090; off when empty (env FRONTDESK_METRICS_ADDR)")
}

func checkOps(c serveConfig) error {
	for _, a := range []struct{ flag, addr string }{{"--https-addr", c.HTTPSAddr}, {"--http-addr", c.HTTPAddr}} {
		if _, _, err := net.SplitHostPort(a.addr); c.HTTPS && err != nil {
			return usagef("%s %q: want HOST:PORT", a.flag, a.addr)
		}
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return usagef("--metrics-addr %q: want HOST:PORT", c.MetricsAddr)
		}
	}
	if c.HTTPS && (!c.PublicURL.Configured() || c.PublicURL.Scheme() != "https") {
		return usagef("--https needs --public-url https://your.domain: the certificate is for its host")
	}
	return nil
}

// listen opens what serve listens on besides the plain main listener (given without --https):
// with --https the TLS main listener and the HTTP challenge/redirect listener, and the metrics
// listener. It returns the main listener. The public listeners cap each client's connections
// (connlimit.go); the metrics listener, for the operator's scraper, does not.
func (s *server) listen(main net.Listener) (net.Listener, error) {
	cfg := s.cfg
	if s.metrics != nil && cfg.MetricsAddr != "" {
		ln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return nil, fmt.Errorf("--metrics-addr: %w", err)
		}
		s.extra = append(s.extra, extraListener{"metrics", ln, operatorHandler(s.metrics)})
	}
	public := func(ln net.Listener) net.Listener {
		return limitPerClient(ln, cfg.MaxConnsPerClient, cfg.TrustedProxies, s.log)
	}
	if !cfg.HTTPS {
		return public(main), nil
	}
	plain, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("--http-addr: %w", err)
	}
	secure, err := net.Listen("tcp", cfg.HTTPSAddr)
	if err != nil {
		plain.Close()
		return nil, fmt.Errorf("--https-addr: %w", err)
	}
	host, httpPort, _ := net.SplitHostPort(plain.Addr().String())
	_, tlsPort, _ := net.SplitHostPort(secure.Addr().String())
	hp, _ := strconv.Atoi(httpPort)
	tp, _ := strconv.Atoi(tlsPort)
	if h, _, _ := net.SplitHostPort(cfg.HTTPAddr); h == "" {
		host = ""
	}
	m, err := tlsacme.New(tlsacme.Options{
		Host: cfg.PublicURL.Hostname(), Storage: filepath.Join(cfg.Data, "certificates"),
		CA: cfg.ACMECA, CARoot: cfg.ACMECARoot, Email: cfg.ACMEEmail,
		HTTPPort: hp, TLSPort: tp, ListenHost: host, Log: s.log, Registry: s.reg,
		RenewCheckInterval: cfg.acmeRenewCheck, RenewalWindowRatio: cfg.acmeRenewRatio,
	})
	if err != nil {
		plain.Close()
		secure.Close()
		return nil, err
	}
	s.workers = append(s.workers, m)
	s.extra = append(s.extra, extraListener{"http", public(plain), m.HTTPHandler(s.redirectToHTTPS())})
	return tls.NewListener(public(secure), m.TLSConfig()), nil
}

// redirectToHTTPS answers plain HTTP with a permanent redirect to the same path on the public
// URL (never on the request's Host). /healthz and /readyz are answered as they are, so
// `frontdesk healthcheck` and load balancers can probe without a certificate.
func (s *server) redirectToHTTPS() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz", "/readyz":
			s.handler.ServeHTTP(w, r)
			return
		}
		target := s.links.String() + r.URL.EscapedPath()
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusPermanentRedirect)
	})
}

// hsts tells browsers to use HTTPS only, for a year, once they have seen it over HTTPS.
func hsts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			w.Header().Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// notifier is the systemd notifier of this process, from the environment serve was given.
func notifier(env Env) systemd.Notifier { return systemd.FromEnv(env.Getenv, os.Getpid()) }

// watchdog is the background worker that pings systemd's watchdog while the database answers.
type watchdog struct {
	n systemd.Notifier
	s *server
}

func (w watchdog) Run(ctx context.Context) error {
	return w.n.Watchdog(ctx, func(ctx context.Context) error { return w.s.db.Read.PingContext(ctx) },
		func(err error) { w.s.log.Warn("systemd watchdog: not pinging", "err", err) })
}

// operatorHandler is what the --metrics-addr listener serves: Prometheus /metrics and Go's
// profiler under /debug/pprof/ (docs/deploy.md, "Profiling"). Both tell more about the
// installation than a stranger should learn, so neither is ever on the public listeners. The
// command line (pprof's cmdline) is left out: it may hold a secret passed as a flag.
func operatorHandler(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return mux
}
