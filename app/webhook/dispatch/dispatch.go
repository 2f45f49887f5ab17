package dispatch

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
	"frontdesk/db"
)

// Config tunes the dispatcher; the zero value is the default of docs/webhooks.md.
type Config struct {
	Schedule     webhook.Schedule // nil: DefaultSchedule
	Timeout      time.Duration    // one attempt, dial to last body byte; <= 0: DefaultTimeout
	AllowPrivate bool             // deliver to loopback, private and link-local addresses
	// Workers is the most attempts in flight overall (< 1: DefaultWorkers); PerEndpoint the
	// most to one webhook (< 1: a quarter of Workers, at least 1). The cap is what keeps a
	// hanging endpoint from taking every worker: it can hold PerEndpoint of them for a
	// timeout at most, and the rest keep serving the others.
	Workers     int
	PerEndpoint int
	UserAgent   string        // "": "frontdesk-webhooks"
	Poll        time.Duration // longest sleep between looks at the outbox; <= 0: 1 s
	// Handoff, if set, is the database's (webhook.NewHandoff): while Run runs, new deliveries
	// written in this process reach the dispatcher through it in memory. nil: every delivery
	// is claimed from the table.
	Handoff *webhook.Handoff
}

// Defaults of Config.
const (
	DefaultWorkers = 16
	defaultPoll    = time.Second
)

// Dispatcher delivers the outbox: app/queue claims due deliveries from SQLite (first attempts
// before retries, fair turns, a per-endpoint cap, crash-safe claims); this package POSTs them
// with the Standard Webhooks headers (send.go), records every attempt and schedules the next
// (record.go, docs/webhooks.md). Run it once per database; d.AfterCommit(dispatcher.Wake) makes new
// events leave at once.
type Dispatcher struct {
	db      *db.DB
	q       *queue.Dispatcher[webhook.Payload, target, result]
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	rnd     func() float64
	client  *http.Client
	metrics *metrics
	// keys caches parsed signing keys by secret; only claim rounds (one at a time, on the
	// queue's writer goroutine) use it.
	keys map[string][]byte // signing keys by key mode and secret (keyCacheID)
	// refusedLogged remembers the webhooks (and URLs) whose refused target was logged
	// (refused.go), so the log says it once, not on every retry.
	refusedLogged sync.Map
	// texts caches the delivery log's stored texts (record.go).
	texts textCache
	// reqHeader is the request headers every attempt sends besides the Standard Webhooks ones,
	// as the delivery log keeps them (send.go): the same for every attempt, so rendered once.
	reqHeader string
}

// New returns a dispatcher over d. Its metrics are registered on reg unless reg is nil.
func New(d *db.DB, cfg Config, log *slog.Logger, now func() time.Time, reg prometheus.Registerer) *Dispatcher {
	if len(cfg.Schedule) == 0 {
		cfg.Schedule = webhook.DefaultSchedule()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Workers < 1 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.PerEndpoint < 1 {
		cfg.PerEndpoint = max(cfg.Workers/4, 1)
	}
	cfg.PerEndpoint = min(cfg.PerEndpoint, cfg.Workers)
	if cfg.UserAgent == "" {
		cfg.UserAgent = "frontdesk-webhooks"
	}
	if cfg.Poll <= 0 {
		cfg.Poll = defaultPoll
	}
	if now == nil {
		now = time.Now
	}
	disp := &Dispatcher{
		db: d, cfg: cfg, log: log, now: now, rnd: rand.Float64,
		// Idle connections are kept per host, and several webhooks often share one (a
		// receiver with a path per endpoint, an automation platform): keep one per worker,
		// or connections are closed and dialled again all the time.
		client:  NewHTTPClient(cfg.Timeout, cfg.AllowPrivate, cfg.Workers),
		metrics: newMetrics(d, now, reg),
		keys:    map[string][]byte{},
	}
	disp.reqHeader = formatHeader(disp.baseHeader(), maxHeaderLog)
	disp.q = queue.New(d, queue.Config{Name: "webhook", Workers: cfg.Workers, PerTarget: cfg.PerEndpoint, Poll: cfg.Poll},
		store{disp}, disp, log, now)
	return disp
}

// Live reports how webhook id is being served now (its adaptive concurrency and delivery
// rate); false before anything has been sent to it since the start. ManagerOptions.Live takes
// it, for the owner's pages.
func (d *Dispatcher) Live(id int64) (queue.TargetStats, bool) { return d.q.Target(id) }

// Wake makes the dispatcher look at the outbox now. It never blocks; wakes that arrive while
// one is pending merge into it.
func (d *Dispatcher) Wake() { d.q.Wake() }

// Run delivers until ctx is cancelled, then stops claiming, lets the attempts in flight finish
// (each is bounded by the timeout), records them, hands queued deliveries back to the outbox
// and returns nil.
func (d *Dispatcher) Run(ctx context.Context) error {
	if d.cfg.Handoff != nil {
		defer d.cfg.Handoff.Serve(d.q)()
	}
	return d.q.Run(ctx)
}
