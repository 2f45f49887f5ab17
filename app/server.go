package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"frontdesk/app/activity"
	"frontdesk/app/admin"
	"frontdesk/app/api"
	"frontdesk/app/booking"
	"frontdesk/app/buildinfo"
	"frontdesk/app/calendar/calsync"
	"frontdesk/app/customer"
	"frontdesk/app/keyauth"
	"frontdesk/app/links"
	"frontdesk/app/mcp"
	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
	"frontdesk/app/middleware"
	"frontdesk/app/msghook"
	"frontdesk/app/owner"
	"frontdesk/app/payhook"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/replies"
	"frontdesk/app/secrets"
	"frontdesk/app/site"
	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
	"frontdesk/static"
)

// newServer builds the appliance: the one chi root with every surface, and its workers.
func newServer(ctx context.Context, cfg serveConfig, d *db.DB, log *slog.Logger, now func() time.Time, base links.Base) (*server, error) {
	s := &server{cfg: cfg, db: d, log: log, now: now, links: base, stderr: io.Discard, program: "frontdesk"}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "frontdesk_http_request_duration_seconds",
		Help:    "HTTP request latency by route pattern, method and status class.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route", "method", "status"})
	reg.MustRegister(latency)
	bi := buildinfo.Get()
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "frontdesk_build_info",
		Help:        "Always 1; the labels say which frontdesk is running (app/buildinfo).",
		ConstLabels: prometheus.Labels{"version": bi.Version, "revision": bi.Revision, "goversion": bi.GoVersion},
	}, func() float64 { return 1 }))
	observe := newRouteLatency(latency).observe

	// One key checker for every key-authenticated surface (/v3, /mcp): one rate-limit budget per key.
	keys := keyauth.New(d, keyauth.Options{Now: now, Log: log, Limits: cfg.Limits})
	v3 := api.New(d, api.Options{Now: now, Log: log, Keys: keys, Links: base})

	// New deliveries written in this process reach the running dispatcher in memory through
	// the database's hand-off (docs/webhooks.md, "How a first attempt reaches the dispatcher").
	hooks := dispatch.New(d, dispatch.Config{Schedule: cfg.WebhookSchedule, Timeout: cfg.WebhookTimeout,
		AllowPrivate: cfg.WebhookAllowPrivate, Workers: cfg.WebhookWorkers, UserAgent: "frontdesk-webhooks/" + buildinfo.Version(),
		Handoff: webhook.NewHandoff(d)}, log, now, reg)
	d.AfterCommit(hooks.Wake)
	s.workers = append(s.workers, hooks, webhook.NewPruner(d, cfg.WebhookRetention, log, now))
	s.workers = append(s.workers, activity.NewPruner(d, cfg.ActivityRetention, log, now))
	expirer := payments.NewExpirer(d, log, now)
	s.workers = append(s.workers, expirer)
	// Classes: keeps timetable sessions made a year ahead (docs/classes.md).
	s.workers = append(s.workers, booking.NewTimetabler(d, log, now))

	// Credentials the appliance must read back (SMTP password, payment provider keys) are sealed
	// with the data directory's key file (app/secrets), never stored in clear in the database.
	box, err := secrets.Load(cfg.Data)
	if err != nil {
		return nil, err
	}

	// Online payments (docs/payments.md): the providers compiled in, the reconciliation worker,
	// and the expiry closing a request's checkout at the provider first. Links come from the
	// public URL (app/links).
	online := payments.NewOnline(d, payments.OnlineOptions{Sealer: box, Links: base, Now: now, Log: log,
		Providers: []payments.Registration{stripe.Registration(stripe.Config{APIURL: cfg.StripeAPIURL})}})
	reconciler := payments.NewReconciler(online, log)
	d.AfterCommit(reconciler.Wake)
	s.workers = append(s.workers, reconciler)
	expirer.Checkouts = online

	// Providers' own calendars (docs/calendars.md): polled in the background into busy blocks
	// the slot engine reads; CalDAV passwords are sealed with the same key.
	calendars := calsync.New(d, box, log, now)
	calendars.Interval, calendars.StaleAfter = cfg.CalendarInterval, cfg.CalendarStaleAfter
	s.workers = append(s.workers, calendars)
	// Bookings written into the calendar a provider chose (docs/calendars.md, "Bookings in your
	// calendar"): queued by triggers with each booking change, pushed after its commit.
	pusher := calsync.NewPusher(d, box, log, now)
	d.AfterCommit(pusher.Wake)
	s.workers = append(s.workers, pusher)

	// Customer messages (docs/messages.md); their links (unsubscribe) come from the public URL.
	msgs := mailer.New(d, mailer.Options{Messages: messages.Options{Now: now, Log: log, Secrets: box, Override: cfg.Messages, Links: base,
		TwilioAPI: cfg.TwilioAPIURL, WhatsAppAPI: cfg.WhatsAppAPIURL},
		Schedule: cfg.MessageSchedule, Registerer: reg, Handoff: messages.NewHandoff(d)})
	d.AfterCommit(msgs.Wake)
	s.workers = append(s.workers, msgs.Dispatcher(), msgs.Pruner())

	// Full disk: a metric while it lasts, /readyz says so, and a watcher notices
	// when writes work again (db/storage.go).
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "frontdesk_storage_full",
		Help: "1 while the disk under the database is full and writes are refused, else 0.",
	}, func() float64 {
		if full, _ := d.Storage().Full(); full {
			return 1
		}
		return 0
	}), prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "frontdesk_storage_full_writes_total",
		Help: "Writes refused because the disk under the database was full.",
	}, func() float64 { return float64(d.Storage().Refused()) }))
	s.workers = append(s.workers, &db.StorageWatch{DB: d, Log: log, Now: now})

	// Memory a spell of requests left behind goes back to the system once it is over (idlefree.go).
	idle := newIdleFree(d.ForgetKept, v3.ForgetKept)
	s.workers = append(s.workers, idle)

	r := chi.NewRouter()
	r.Use(idle.wrap, middleware.WithRequestID, middleware.RealClient(cfg.TrustedProxies), middleware.AccessLog(log, observe), middleware.Recover(log), middleware.SecurityHeaders, middleware.HeadAsGet)
	if cfg.HTTPS {
		r.Use(hsts)
	}
	r.Use(activityIP)
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	r.Get("/readyz", s.readyz)
	// Metrics are served on their own listener (--metrics-addr), never here.
	s.reg, s.metrics = reg, promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	r.Mount("/v3", maxBytes(v3.Routes(), 2<<20))
	// MCP endpoint (docs/mcp.md): AI assistants book through the same stores, keys and limits.
	r.Handle("/mcp", mcp.New(d, mcp.Options{Now: now, Log: log, Keys: keys, Version: buildinfo.Version(), Links: base}).Handler())
	r.Handle(static.Prefix+"*", static.Handler())
	// Payment providers' notifications (app/payhook): POST /stripe/webhook.
	for _, reg := range online.Registrations() {
		r.Post("/"+reg.Name+"/webhook", payhook.Handler(online, reg.Name, log).ServeHTTP)
	}
	// Text providers' webhooks (app/msghook): clients' replies, which confirm, cancel or stop
	// (app/replies), and delivery statuses — POST /twilio/sms, /twilio/status, GET and POST
	// /whatsapp/webhook, each checked by its provider's signature.
	msghook.New(msghook.Options{DB: d, Messages: msgs.Service, Replies: replies.New(d, now), Links: base, Log: log}).Mount(r)
	// Booking site: the public pages at /book (app/site, docs/booking-site.md).
	// Its absolute links (manage links, checkout URLs, the embed snippet) start with the public URL.
	postsPerHour := cfg.SitePostsPerHour
	if postsPerHour == 0 {
		postsPerHour = -1 // the flag's 0 is "unlimited"
	}
	bookingSite := site.New(d, site.Options{Now: now, Log: log, Links: s.links, PostsPerHour: postsPerHour, ClientIP: middleware.ClientIP, Online: online})
	idle.alsoForget(bookingSite.ForgetKept)
	r.Mount("/book", bookingSite.Routes())
	// Calendar feeds of providers and locations, /feeds/{token}.ics (app/site feeds.go,
	// docs/feeds.md), served by the booking site's package but not behind its on/off switch.
	r.Mount("/feeds", bookingSite.FeedRoutes()) // feeds.PathPrefix
	// The pages customers open from a link they were sent (app/customer): a payment request's
	// checkout page, /pay/…, and the reminder opt-out, /messages/unsubscribe/….
	customer.New(d, customer.Options{Now: now, Log: log, Online: online, Messages: msgs.Service}).Mount(r)
	r.Mount("/", admin.New(d, admin.Options{Now: now, Log: log, Online: online, Links: s.links,
		Webhooks: admin.WebhookOptions{Schedule: cfg.WebhookSchedule, AllowPrivate: cfg.WebhookAllowPrivate,
			Live: hooks.Live}, // slow endpoints (docs/webhooks.md): backlog drain estimates
		Messages: msgs, Secrets: box,
		CalendarSaved: calendars.Wake}).Routes()) // a saved calendar is read at once
	if err := s.firstRunSetup(ctx); err != nil {
		return nil, err
	}
	s.handler = r
	return s, nil
}

// firstRunSetup makes the one-time setup token when no owner exists yet and, once the server
// listens, logs the URL that creates the first owner (docs/deploy.md "First login": nobody
// else can claim a fresh instance). The URL is built from the public URL, never from a
// request. Each start replaces the token, so only the latest URL works.
func (s *server) firstRunSetup(ctx context.Context) error {
	token, needed, err := owner.NewSetupToken(ctx, s.db, s.now())
	if err != nil || !needed {
		return err
	}
	setupURL := s.links.URL("/setup", url.Values{"token": {token}})
	s.onListen = append(s.onListen, func(string) {
		s.log.Warn("first run: no owner account yet; open the setup URL in a browser to create one",
			"setup_url", setupURL)
		// The log line is easy to miss among others: say it plainly too.
		fmt.Fprintf(s.stderr, "\n"+
			"  frontdesk has no owner account yet. Open this one-time link to create it:\n\n"+
			"      %s\n\n"+
			"  or run on this server: %s\n\n",
			setupURL, commandLine(s.program, "owner", "create", "--data", s.cfg.Data, "--email", "you@example.com"))
	})
	return nil
}

// readyz answers 200 once the server accepts work and the database answers, 503 otherwise
// (while starting and while shutting down, and while the disk is full: reads still work, but
// nothing can be booked or saved, and a monitor should say so).
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	if full, since := s.db.Storage().Full(); full {
		http.Error(w, "insufficient storage: the disk is full since "+since.Format(time.RFC3339)+
			"; writes are refused until space is freed, reads go on", http.StatusServiceUnavailable)
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

// metricMethod is a request's method as a metric label: one of the methods frontdesk answers,
// or "other". Anyone may send any token as a method, and each new one would be a new series
// kept in memory for the life of the process (and in Prometheus): unbounded, from outside.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, "CANCEL":
		return m
	}
	return "other"
}

func statusClass(code int) string {
	return string(rune('0'+code/100)) + "xx"
}

// maxBytes is http.MaxBytesHandler for requests that carry a body. One that carries none (a
// GET: net/http gives it http.NoBody) has nothing to limit and goes through as it came,
// without the copy of the request that MaxBytesHandler makes.
func maxBytes(h http.Handler, n int64) http.Handler {
	limited := http.MaxBytesHandler(h, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
}

// activityIP gives every request's changes the client address the activity trail records: the
// one RealClient resolved, behind trusted proxies the address they vouch for.
func activityIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(activity.WithIP(r.Context(), middleware.ClientIP(r))))
	})
}
