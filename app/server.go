package app

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"frontdesk/app/admin"
	"frontdesk/app/api"
	"frontdesk/app/keyauth"
	"frontdesk/app/mcp"
	"frontdesk/app/messages"
	"frontdesk/app/middleware"
	"frontdesk/app/owner"
	"frontdesk/app/payhook"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/secrets"
	"frontdesk/app/webhook"
	"frontdesk/db"
	"frontdesk/static"
)

// newServer builds the appliance: the one chi root with every surface, and its workers.
func newServer(ctx context.Context, cfg serveConfig, d *db.DB, log *slog.Logger, now func() time.Time) (*server, error) {
	s := &server{cfg: cfg, db: d, log: log, now: now}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "frontdesk_http_request_duration_seconds",
		Help:    "HTTP request latency by route pattern, method and status class.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route", "method", "status"})
	reg.MustRegister(latency)
	observe := func(r *http.Request, status int, d time.Duration) {
		route := chi.RouteContext(r.Context()).RoutePattern()
		if route == "" {
			route = "unmatched"
		}
		latency.WithLabelValues(route, r.Method, statusClass(status)).Observe(d.Seconds())
	}

	// One key checker for every key-authenticated surface (/v3, /mcp): one rate-limit budget per key.
	keys := keyauth.New(d, keyauth.Options{Now: now, Log: log, Limits: cfg.Limits})
	v3 := api.New(d, api.Options{Now: now, Log: log, Keys: keys})

	hooks := webhook.NewDispatcher(d, webhook.Config{Schedule: cfg.WebhookSchedule, Timeout: cfg.WebhookTimeout,
		AllowPrivate: cfg.WebhookAllowPrivate, Workers: cfg.WebhookWorkers, UserAgent: "frontdesk-webhooks/" + Version}, log, now, reg)
	d.AfterCommit(hooks.Wake)
	s.workers = append(s.workers, hooks, webhook.NewPruner(d, cfg.WebhookRetention, log, now))
	expirer := payments.NewExpirer(d, log, now)
	s.workers = append(s.workers, expirer)

	// Credentials the appliance must read back (SMTP password, payment provider keys) are sealed
	// with the data directory's key file (app/secrets), never stored in clear in the database.
	box, err := secrets.Load(cfg.Data)
	if err != nil {
		return nil, err
	}

	// Online payments (docs/payments.md): the providers compiled in, the reconciliation worker,
	// and the expiry closing a request's checkout at the provider first. Links come from the
	// public URL (see interimLinks below).
	s.links = &interimLinks{}
	s.links.set("http://" + cfg.Addr)
	s.onListen = append(s.onListen, func(addr string) { s.links.set("http://" + addr) })
	online := payments.NewOnline(d, payments.OnlineOptions{Sealer: box, Links: s.links, Now: now, Log: log,
		Providers: []payments.Registration{stripe.Registration(stripe.Config{APIURL: cfg.StripeAPIURL})}})
	reconciler := payments.NewReconciler(online, log)
	d.AfterCommit(reconciler.Wake)
	s.workers = append(s.workers, reconciler)
	expirer.Checkouts = online

	// Customer messages (issue 12). Links stays nil (no unsubscribe links) until --public-url
	// (issue 9) gives a base URL; then it is links.Base.
	msgs := messages.New(d, messages.Options{Now: now, Log: log, Secrets: box, Override: cfg.Messages,
		Schedule: cfg.MessageSchedule, Registerer: reg})
	d.AfterCommit(msgs.Wake)
	s.workers = append(s.workers, msgs.Dispatcher(), msgs.Pruner())

	r := chi.NewRouter()
	r.Use(middleware.WithRequestID, middleware.AccessLog(log, observe), middleware.Recover(log), middleware.SecurityHeaders)
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	r.Get("/readyz", s.readyz)
	r.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	r.Mount("/v3", http.MaxBytesHandler(v3.Routes(), 2<<20))
	// MCP endpoint (issue 16, docs/mcp.md): AI assistants book through the same stores, keys and limits.
	r.Handle("/mcp", mcp.New(d, mcp.Options{Now: now, Log: log, Keys: keys, Version: Version}).Handler())
	// end MCP endpoint
	r.Handle(static.Prefix+"*", static.Handler())
	// Payment providers' notifications (app/payhook): POST /stripe/webhook.
	for _, reg := range online.Registrations() {
		r.Post("/"+reg.Name+"/webhook", payhook.Handler(online, reg.Name, log).ServeHTTP)
	}
	r.Mount("/", admin.New(d, admin.Options{Now: now, Log: log, Online: online,
		Webhooks: admin.WebhookOptions{Schedule: cfg.WebhookSchedule, AllowPrivate: cfg.WebhookAllowPrivate},
		Messages: msgs}).Routes())
	if err := s.firstRunSetup(ctx); err != nil {
		return nil, err
	}
	s.handler = r
	return s, nil
}

// firstRunSetup makes the one-time setup token when no owner exists yet and, once the address
// is known, logs the URL that creates the first owner (docs/contract.md: nobody else can claim a fresh
// instance). Each start replaces the token, so only the latest URL works.
func (s *server) firstRunSetup(ctx context.Context) error {
	token, needed, err := owner.NewSetupToken(ctx, s.db, s.now())
	if err != nil || !needed {
		return err
	}
	s.onListen = append(s.onListen, func(addr string) {
		s.log.Warn("first run: no owner account yet; open the setup URL in a browser to create one",
			"setup_url", "http://"+addr+"/setup?token="+token)
	})
	return nil
}

// readyz answers 200 once the server accepts work and the database answers, 503 otherwise
// (while starting and while shutting down).
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.db.Read.PingContext(ctx); err != nil {
		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready\n"))
}

func statusClass(code int) string {
	return string(rune('0'+code/100)) + "xx"
}

// ---- Online payments: interim public URL (issue 14, until issue 9's app/links is on main) ----
//
// interimLinks builds the links online payments hand out (Stripe's success and cancel URLs, the
// notification URL shown in Settings → Payments) from the address the server listens on. When
// --public-url lands, app/links.Base replaces it: it has the same URL method.
type interimLinks struct{ base atomic.Pointer[string] }

func (l *interimLinks) set(base string) { l.base.Store(&base) }

// URL joins path and query onto the base.
func (l *interimLinks) URL(path string, query url.Values) string {
	u := strings.TrimSuffix(*l.base.Load(), "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// ---- end of interim public URL ----
