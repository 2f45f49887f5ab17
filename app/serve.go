package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/activity"
	"frontdesk/app/api"
	"frontdesk/app/buildinfo"
	"frontdesk/app/calendar/calsync"
	"frontdesk/app/links"
	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
	"frontdesk/app/middleware"
	"frontdesk/app/payments/stripe"
	"frontdesk/app/queue"
	"frontdesk/app/systemd"
	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
)

// serveConfig is everything `serve` can be told, from flags with FRONTDESK_* fallbacks.
type serveConfig struct {
	Addr            string
	Data            string
	Demo            bool
	Limits          api.Limits
	ShutdownTimeout time.Duration

	WebhookSchedule     webhook.Schedule
	WebhookTimeout      time.Duration
	WebhookAllowPrivate bool
	WebhookWorkers      int
	WebhookRetention    time.Duration
	// ActivityRetention is how long the activity trail keeps an entry (docs/activity.md).
	ActivityRetention time.Duration
	// Providers' own calendars (docs/calendars.md): how often each is polled, and how old its
	// last good sync may be before the admin calls it stale.
	CalendarInterval   time.Duration
	CalendarStaleAfter time.Duration

	// Customer messages: --smtp-url and --mail-from win over Settings → Messages (docs/messages.md).
	Messages        messages.Override
	MessageSchedule queue.Schedule
	// TwilioAPIURL is where Twilio's REST API is (a test receiver, or a proxy); texts through
	// Twilio go there.
	TwilioAPIURL string
	// WhatsAppAPIURL is where the WhatsApp Cloud API (Meta's Graph API) is.
	WhatsAppAPIURL string
	// Online payments (docs/payments.md): where Stripe's API is (stripe-mock in tests and local
	// development).
	StripeAPIURL string
	// Public URL (docs/deploy.md): the base of every generated link. Zero when not
	// configured; links then use the listen address.
	PublicURL links.Base
	// Trusted proxies (docs/deploy.md "Behind a proxy"): only these may set X-Forwarded-*.
	TrustedProxies []netip.Prefix
	// HTTPS, metrics listener (serve_ops.go).
	opsConfig
	// The booking site's per-address POST limit (docs/booking-site.md).
	SitePostsPerHour int
	// LogFormat is --log-format: logText, logJSON, or "" to choose by where the log goes.
	LogFormat string
	// Connections (connlimit.go): how many one client may hold open, and how long an idle
	// keep-alive connection is kept.
	MaxConnsPerClient int
	IdleTimeout       time.Duration
}

// DefaultIdleTimeout is how long an idle keep-alive connection is kept open (--idle-timeout):
// long enough for a page and the files it loads to share one connection, short enough that
// idle connections do not pile up (Go's default would be the read timeout, 30 s; nginx keeps
// 75 s).
const DefaultIdleTimeout = 60 * time.Second

func parseServeConfig(env Env, args []string) (serveConfig, error) {
	return parseServeFlags("serve", "[--addr HOST:PORT] [--data DIR] [--demo] [flags]", env, args)
}

// parseServeFlags parses serve's flags for serve and for the commands that check its
// configuration (doctor).
func parseServeFlags(name, synopsis string, env Env, args []string) (serveConfig, error) {
	var c serveConfig
	var err error
	fs := newFlagSet(name, synopsis, env)
	fs.StringVar(&c.Addr, "addr", envString(env, "FRONTDESK_ADDR", "127.0.0.1:8080"), "listen address; with --https, --https-addr and --http-addr are used instead (env FRONTDESK_ADDR)")
	fs.StringVar(&c.Data, "data", envString(env, "FRONTDESK_DATA", "./data"), "data directory holding the SQLite file (env FRONTDESK_DATA)")
	fs.BoolVar(&c.Demo, "demo", envBool(env, "FRONTDESK_DEMO", false), "load the demo business into an empty database (env FRONTDESK_DEMO)")
	fs.IntVar(&c.Limits.PerMinute, "rate-limit-per-minute", envInt(env, "FRONTDESK_RATE_LIMIT_PER_MINUTE", 70), "requests per minute per API key, 0 = unlimited (env FRONTDESK_RATE_LIMIT_PER_MINUTE)")
	fs.IntVar(&c.Limits.PerDay, "rate-limit-per-day", envInt(env, "FRONTDESK_RATE_LIMIT_PER_DAY", 10000), "requests per UTC day per API key, 0 = unlimited (env FRONTDESK_RATE_LIMIT_PER_DAY)")
	fs.StringVar(&c.LogFormat, "log-format", env.Getenv("FRONTDESK_LOG_FORMAT"), "log as text (for a person at a terminal) or json; default: json under systemd or when standard error is not a terminal, text on a terminal (env FRONTDESK_LOG_FORMAT)")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", envDuration(env, "FRONTDESK_SHUTDOWN_TIMEOUT", 20*time.Second), "how long a graceful stop may take (env FRONTDESK_SHUTDOWN_TIMEOUT)")

	c.WebhookSchedule = webhook.DefaultSchedule()
	if v := env.Getenv("FRONTDESK_WEBHOOK_RETRY_SCHEDULE"); v != "" {
		s, err := webhook.ParseSchedule(v)
		if err != nil {
			return c, usagef("FRONTDESK_WEBHOOK_RETRY_SCHEDULE: %v", err)
		}
		c.WebhookSchedule = s
	}
	fs.Var(&c.WebhookSchedule, "webhook-retry-schedule", "waits before each webhook delivery attempt, e.g. 0s,5s,5m (env FRONTDESK_WEBHOOK_RETRY_SCHEDULE)")
	fs.DurationVar(&c.WebhookTimeout, "webhook-timeout", envDuration(env, "FRONTDESK_WEBHOOK_TIMEOUT", dispatch.DefaultTimeout), "timeout of one webhook delivery attempt (env FRONTDESK_WEBHOOK_TIMEOUT)")
	fs.BoolVar(&c.WebhookAllowPrivate, "webhook-allow-private", envBool(env, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE", false), "allow webhook targets on loopback, private and link-local addresses (env FRONTDESK_WEBHOOK_ALLOW_PRIVATE)")
	fs.IntVar(&c.WebhookWorkers, "webhook-workers", envInt(env, "FRONTDESK_WEBHOOK_WORKERS", 16), "concurrent webhook deliveries (env FRONTDESK_WEBHOOK_WORKERS)")
	fs.DurationVar(&c.WebhookRetention, "webhook-retention", envDuration(env, "FRONTDESK_WEBHOOK_RETENTION", 30*24*time.Hour), "how long delivery logs are kept (env FRONTDESK_WEBHOOK_RETENTION)")
	fs.DurationVar(&c.CalendarInterval, "calendar-interval", envDuration(env, "FRONTDESK_CALENDAR_INTERVAL", calsync.DefaultInterval), "how often each provider's own calendar is read, at least 1m (env FRONTDESK_CALENDAR_INTERVAL)")
	fs.DurationVar(&c.CalendarStaleAfter, "calendar-stale-after", envDuration(env, "FRONTDESK_CALENDAR_STALE_AFTER", calsync.DefaultStaleAfter), "how old a provider calendar's last good sync may be before it is stale (env FRONTDESK_CALENDAR_STALE_AFTER)")
	fs.DurationVar(&c.ActivityRetention, "activity-retention", envDuration(env, "FRONTDESK_ACTIVITY_RETENTION", activity.DefaultRetention), "how long the activity trail keeps who changed what (env FRONTDESK_ACTIVITY_RETENTION)")
	// Customer messages (docs/messages.md).
	smtpURL := fs.String("smtp-url", env.Getenv("FRONTDESK_SMTP_URL"), "mail server for customer messages, smtp://user:pass@host:port[?starttls=required|opportunistic|off] or smtps://…; wins over Settings → Messages (env FRONTDESK_SMTP_URL)")
	mailFrom := fs.String("mail-from", env.Getenv("FRONTDESK_MAIL_FROM"), "sender of customer messages, \"Name <address>\"; wins over Settings → Messages (env FRONTDESK_MAIL_FROM)")
	c.MessageSchedule = mailer.DefaultSchedule()
	if v := env.Getenv("FRONTDESK_MESSAGE_RETRY_SCHEDULE"); v != "" {
		s, err := queue.ParseSchedule(v)
		if err != nil {
			return c, usagef("FRONTDESK_MESSAGE_RETRY_SCHEDULE: %v", err)
		}
		c.MessageSchedule = s
	}
	fs.Var(&c.MessageSchedule, "message-retry-schedule", "waits before each attempt to send a customer message (env FRONTDESK_MESSAGE_RETRY_SCHEDULE)")
	fs.StringVar(&c.WhatsAppAPIURL, "whatsapp-api-url", envString(env, "FRONTDESK_WHATSAPP_API_URL", messages.WhatsAppAPI), "the WhatsApp Cloud API (Meta's Graph API), where WhatsApp messages go; for a proxy or a test receiver (env FRONTDESK_WHATSAPP_API_URL)")
	fs.StringVar(&c.TwilioAPIURL, "twilio-api-url", envString(env, "FRONTDESK_TWILIO_API_URL", messages.TwilioAPI), "Twilio's REST API, where texts through Twilio go; for a proxy or a test receiver (env FRONTDESK_TWILIO_API_URL)")
	// Online payments.
	fs.StringVar(&c.StripeAPIURL, "stripe-api-url", envString(env, "FRONTDESK_STRIPE_API_URL", stripe.DefaultAPIURL), "Stripe's API, or a stripe-mock for development (env FRONTDESK_STRIPE_API_URL)")
	// Public URL.
	publicURL := fs.String("public-url", env.Getenv("FRONTDESK_PUBLIC_URL"), "the URL customers and owners reach frontdesk at, e.g. https://book.example.com; every generated link starts with it (env FRONTDESK_PUBLIC_URL)")
	// Trusted proxies.
	trusted := fs.String("trusted-proxies", env.Getenv("FRONTDESK_TRUSTED_PROXIES"), "comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-For/-Proto are believed, e.g. 127.0.0.1,::1 (env FRONTDESK_TRUSTED_PROXIES)")
	// HTTPS, metrics listener.
	addOpsFlags(fs, env, &c.opsConfig)
	// The booking site (docs/booking-site.md).
	fs.IntVar(&c.SitePostsPerHour, "booking-site-posts-per-hour", envInt(env, "FRONTDESK_BOOKING_SITE_POSTS_PER_HOUR", 60), "bookings, reschedules and cancels one client address may send the booking site per hour, in bursts of up to 10; 0 = unlimited (env FRONTDESK_BOOKING_SITE_POSTS_PER_HOUR)")
	// Connections.
	fs.IntVar(&c.MaxConnsPerClient, "max-conns-per-client", envInt(env, "FRONTDESK_MAX_CONNS_PER_CLIENT", DefaultMaxConnsPerClient), "connections one client address (an IPv6 /64) may hold open at once; trusted proxies are not limited; 0 = unlimited (env FRONTDESK_MAX_CONNS_PER_CLIENT)")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", envDuration(env, "FRONTDESK_IDLE_TIMEOUT", DefaultIdleTimeout), "how long an idle keep-alive connection is kept open (env FRONTDESK_IDLE_TIMEOUT)")
	if err := fs.parse(args); err != nil {
		return c, err
	}
	if err := parseMessageFlags(&c.Messages, *smtpURL, *mailFrom); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, usagef("unexpected argument %q", fs.Arg(0))
	}
	if u, err := url.Parse(c.TwilioAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, usagef("--twilio-api-url: want an http:// or https:// URL, got %q", c.TwilioAPIURL)
	}
	if u, err := url.Parse(c.WhatsAppAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, usagef("--whatsapp-api-url: want an http:// or https:// URL, got %q", c.WhatsAppAPIURL)
	}
	if u, err := url.Parse(c.StripeAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, usagef("--stripe-api-url %q: want an absolute http(s) URL", c.StripeAPIURL)
	}
	if c.TrustedProxies, err = middleware.ParseTrustedProxies(*trusted); err != nil {
		return c, usagef("--trusted-proxies: %v", err)
	}
	if *publicURL != "" {
		b, err := links.Parse(*publicURL)
		if err != nil {
			return c, usagef("--public-url: %v", err)
		}
		c.PublicURL = b
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, usagef("--addr %q: want HOST:PORT", c.Addr)
	}
	if c.LogFormat != "" && c.LogFormat != logText && c.LogFormat != logJSON {
		return c, usagef("--log-format %q: want text or json", c.LogFormat)
	}
	if c.SitePostsPerHour < 0 {
		return c, usagef("--booking-site-posts-per-hour must be ≥ 0")
	}
	if c.MaxConnsPerClient < 0 || c.IdleTimeout <= 0 {
		return c, usagef("--max-conns-per-client must be ≥ 0 and --idle-timeout > 0")
	}
	if c.CalendarInterval < calsync.MinInterval || c.CalendarStaleAfter <= 0 {
		return c, usagef("--calendar-interval must be at least %v and --calendar-stale-after positive", calsync.MinInterval)
	}
	if c.Limits.PerMinute < 0 || c.Limits.PerDay < 0 || c.WebhookWorkers < 1 || c.WebhookTimeout <= 0 {
		return c, usagef("rate limits must be ≥ 0, --webhook-workers ≥ 1 and --webhook-timeout > 0")
	}
	return c, checkOps(c)
}

func runServe(ctx context.Context, env Env, args []string) error {
	cfg, err := parseServeConfig(env, args)
	if err != nil {
		return err
	}
	return serveWith(ctx, env, cfg)
}

// serveWith runs the appliance with a parsed configuration (tests adjust what has no flag).
func serveWith(ctx context.Context, env Env, cfg serveConfig) error {
	log := newLogger(env.Stderr, logFormat(env, cfg.LogFormat))
	unlock, err := lockServe(env, cfg.Data, "two servers on one database would both send the webhooks and emails the other has in flight")
	if err != nil {
		return err
	}
	d, created, err := createData(ctx, env, cfg.Data)
	if err != nil {
		unlock(true)
		return err
	}
	defer unlock(false)
	defer d.Close()
	if created {
		log.Info("created a new database", "path", db.Path(cfg.Data))
	}
	if cfg.Demo {
		loaded, err := loadDemoIfEmpty(ctx, d, env.Now())
		if err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
		if loaded {
			log.Info("loaded the demo business")
		}
	}
	var plain net.Listener
	listenAddr := ""
	if !cfg.HTTPS {
		if plain, err = net.Listen("tcp", cfg.Addr); err != nil {
			return err
		}
		defer plain.Close()
		listenAddr = plain.Addr().String()
	}
	srv, err := newServer(ctx, cfg, d, log, env.Now, linkBase(cfg, listenAddr))
	if err != nil {
		return err
	}
	srv.notify, srv.stderr, srv.program = notifier(env), env.Stderr, env.program()
	srv.workers = append(srv.workers, watchdog{srv.notify, srv})
	ln, err := srv.listen(plain)
	if err != nil {
		for _, x := range srv.extra {
			x.ln.Close()
		}
		return err
	}
	defer ln.Close()
	srv.onListening = env.Listening
	return srv.serve(ctx, ln, env.Ready)
}

// linkBase is the base of generated links: the configured public URL, or else the address
// the server listens on (known only once it listens, when the port was 0).
func linkBase(cfg serveConfig, listenAddr string) links.Base {
	if cfg.PublicURL.Configured() {
		return cfg.PublicURL
	}
	return links.FromListen(listenAddr)
}

// worker is background work started and joined by serve.
type worker interface {
	Run(ctx context.Context) error
}

// extraListener is a listener beside the main one, with its own handler.
type extraListener struct {
	name    string
	ln      net.Listener
	handler http.Handler
}

// server is the running appliance: HTTP handler, database, background workers.
type server struct {
	cfg     serveConfig
	db      *db.DB
	log     *slog.Logger
	now     func() time.Time
	handler http.Handler
	links   links.Base
	workers []worker
	reg     *prometheus.Registry
	metrics http.Handler // /metrics, served only on --metrics-addr
	extra   []extraListener
	notify  systemd.Notifier
	// onListening is told the address of each extra listener.
	onListening func(name, addr string)
	// stderr gets the plain first-run message (the log goes there too, as JSON).
	stderr io.Writer
	// program is how the operator invoked frontdesk (Env.program), for the command the
	// first-run message suggests: "go run ." has no frontdesk binary to run.
	program string
	ready   atomic.Bool
	// onListen runs once the listening address is known (the first-run setup URL needs it).
	onListen []func(addr string)
}

func (s *server) serve(ctx context.Context, ln net.Listener, onReady func(string)) error {
	httpSrv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	var wg sync.WaitGroup
	errs := make(chan error, len(s.workers)+1)
	for _, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Run(workCtx); err != nil && !errors.Is(err, context.Canceled) {
				errs <- fmt.Errorf("worker %T: %w", w, err)
			}
		}()
	}
	go func() {
		if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs <- err
		}
	}()
	extras := make([]*http.Server, len(s.extra))
	for i, x := range s.extra {
		extras[i] = &http.Server{Handler: x.handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
			WriteTimeout: 60 * time.Second, IdleTimeout: s.cfg.IdleTimeout, ErrorLog: httpSrv.ErrorLog}
		go func() {
			if err := extras[i].Serve(x.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errs <- fmt.Errorf("%s listener: %w", x.name, err)
			}
		}()
		s.log.Info("listening", "addr", x.ln.Addr().String(), "for", x.name)
		if s.onListening != nil {
			s.onListening(x.name, x.ln.Addr().String())
		}
	}
	s.ready.Store(true)
	// The read pool is opened whole as soon as the server is ready, off the path to ready (it
	// costs about 10 ms of schema parsing; db.OpenReaders says why).
	// Then what start-up touched goes back to the system (idlefree.go).
	wg.Go(func() {
		if err := s.db.OpenReaders(workCtx); err != nil && workCtx.Err() == nil {
			s.log.Warn("open the read pool", "err", err)
		}
		giveBack()
	})
	s.log.Info("listening", "addr", ln.Addr().String(), "data", s.cfg.Data, "https", s.cfg.HTTPS, "version", buildinfo.Version())
	if err := s.notify.Notify("READY=1\nSTATUS=serving " + s.links.String()); err != nil {
		s.log.Warn("systemd notify", "err", err)
	}
	for _, fn := range s.onListen {
		fn(ln.Addr().String())
	}
	if onReady != nil {
		onReady(ln.Addr().String())
	}

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errs:
	}
	s.ready.Store(false)
	s.log.Info("shutting down")
	s.notify.Notify("STOPPING=1")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	for _, x := range extras {
		x.Shutdown(shutdownCtx)
	}
	if err := httpSrv.Shutdown(shutdownCtx); err != nil {
		s.log.Warn("http shutdown", "err", err)
	}
	stopWork()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-shutdownCtx.Done():
		s.log.Warn("background work did not stop in time")
	}
	s.log.Info("stopped")
	return runErr
}

// parseMessageFlags reads --smtp-url and --mail-from into the override of the stored settings.
func parseMessageFlags(o *messages.Override, smtpURL, mailFrom string) error {
	if smtpURL != "" {
		t, err := messages.ParseSMTPURL(smtpURL)
		if err != nil {
			return usagef("--smtp-url: %v", err)
		}
		o.Server = &t
	}
	if mailFrom != "" {
		a, err := messages.ParseAddress(mailFrom)
		if err != nil {
			return usagef("--mail-from: %v", err)
		}
		o.From = &a
	}
	return nil
}
