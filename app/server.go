package app

import (
	"context"
	"log/slog"
	"net/http"
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
	"frontdesk/app/payments"
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
	s.workers = append(s.workers, payments.NewExpirer(d, log, now))

	// Customer messages (issue 12). Links stays nil (no unsubscribe links) until --public-url
	// (issue 9) gives a base URL; then it is links.Base.
	box, err := secrets.Load(cfg.Data)
	if err != nil {
		return nil, err
	}
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
	r.Mount("/", admin.New(d, admin.Options{Now: now, Log: log,
		Webhooks: admin.WebhookOptions{Schedule: cfg.WebhookSchedule, AllowPrivate: cfg.WebhookAllowPrivate},
		Messages: msgs}).Routes())
	if err := s.firstRunSetup(ctx); err != nil {
		return nil, err
	}
	s.handler = r
	return s, nil
}

// firstRunSetup makes the one-time setup token when no owner exists yet and, once the address
// is known, logs the URL that creates the first owner (SPEC §3: nobody else can claim a fresh
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
