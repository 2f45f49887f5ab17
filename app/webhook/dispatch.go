package webhook

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/db"
)

// Config tunes the dispatcher; the zero value is SPEC §6's default.
type Config struct {
	Schedule     Schedule      // nil: DefaultSchedule
	Timeout      time.Duration // one attempt, dial to last body byte; <= 0: DefaultTimeout
	AllowPrivate bool          // deliver to loopback, private and link-local addresses
	// Workers is the most attempts in flight overall (< 1: DefaultWorkers); PerEndpoint the
	// most to one webhook (< 1: a quarter of Workers, at least 1). The cap is what keeps a
	// hanging endpoint from taking every worker: it can hold PerEndpoint of them for a
	// timeout at most, and the rest keep serving the others.
	Workers     int
	PerEndpoint int
	UserAgent   string        // "": "frontdesk-webhooks"
	Poll        time.Duration // longest sleep between looks at the outbox; <= 0: 1 s
}

// Defaults of Config.
const (
	DefaultWorkers = 16
	defaultPoll    = time.Second
)

// prefetchDepth is how many attempts per allowed concurrent one a webhook's in-memory queue
// holds: enough that a busy endpoint's workers never wait for a claim round, little enough
// that a hanging endpoint parks only a few hundred deliveries in memory.
const prefetchDepth = 16

// Dispatcher delivers the outbox: it claims due deliveries from SQLite, POSTs them with the
// Standard Webhooks headers, records every attempt and schedules the next (SPEC §6). Run it
// once per database; d.AfterCommit(dispatcher.Wake) makes new events leave at once.
type Dispatcher struct {
	db      *db.DB
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	rnd     func() float64
	client  *http.Client
	metrics *metrics
	wake    chan struct{} // commits by others: new events, resends, reactivations
	kick    chan struct{} // the recorder scheduled a retry or deactivated a webhook
	// prepared holds the statements of quietTx, prepared while Run runs.
	prepared preparedSet
}

// NewDispatcher returns a dispatcher over d. Its metrics are registered on reg unless reg is
// nil.
func NewDispatcher(d *db.DB, cfg Config, log *slog.Logger, now func() time.Time, reg prometheus.Registerer) *Dispatcher {
	if len(cfg.Schedule) == 0 {
		cfg.Schedule = DefaultSchedule()
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
	return &Dispatcher{
		db: d, cfg: cfg, log: log, now: now, rnd: rand.Float64,
		client:  NewHTTPClient(cfg.Timeout, cfg.AllowPrivate, cfg.PerEndpoint),
		metrics: newMetrics(d, now, reg),
		wake:    make(chan struct{}, 1),
		kick:    make(chan struct{}, 1),
	}
}

// Wake makes the dispatcher look at the outbox now. It never blocks; wakes that arrive while
// one is pending merge into it.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run delivers until ctx is cancelled, then stops claiming, lets the attempts in flight finish
// (each is bounded by the timeout), records them, hands queued deliveries back to the outbox
// and returns nil.
func (d *Dispatcher) Run(ctx context.Context) error {
	// Whatever a previous process had claimed when it stopped is due again: at-least-once.
	if n, err := d.db.W.ReleaseAllClaims(ctx, sqlMillis(db.Millis(d.now()))); err != nil {
		return err
	} else if n > 0 {
		d.log.Info("webhook deliveries interrupted by the last stop are due again", "deliveries", n)
	}

	defer d.prepared.close()

	work := make(chan job, d.cfg.Workers)
	done := make(chan int64, d.cfg.Workers)
	results := make(chan result, 4*d.cfg.Workers)
	var workers, recorder sync.WaitGroup
	for range d.cfg.Workers {
		workers.Go(func() {
			for j := range work {
				results <- d.attempt(j)
				done <- j.webhookID
			}
		})
	}
	recorder.Go(func() { d.record(results) })

	l := newLoop(d)
	l.run(ctx, work, done)

	close(work)
	workers.Wait()
	close(results)
	recorder.Wait()
	d.log.Info("webhook dispatcher stopped")
	return nil
}

// loop is the dispatcher's scheduling state, owned by the one goroutine that runs it.
type loop struct {
	d      *Dispatcher
	queues *queues
	busy   int
	claim  bool // look at the outbox at the next turn
	keys   map[string][]byte
	// current is every active webhook's target as of the last claim round. A job is sent
	// with it rather than with what it was claimed with, so a changed URL or a rotated secret
	// applies to queued jobs too.
	current map[int64]target
}

func newLoop(d *Dispatcher) *loop {
	return &loop{d: d, queues: newQueues(), claim: true, keys: map[string][]byte{}}
}

func (l *loop) run(ctx context.Context, work chan<- job, done <-chan int64) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		// Finished attempts free slots; fill them before the (comparatively slow) claim round
		// and again after it.
		l.drain(done)
		l.dispatch(work)
		if l.claim {
			l.claim = false
			wait := l.d.cfg.Poll
			if err := l.claimDue(ctx); err != nil {
				if ctx.Err() != nil {
					break
				}
				l.d.log.Error("webhook claim", "err", err)
			} else if next, err := l.nextDue(ctx); err == nil && next > 0 {
				wait = min(wait, next)
			}
			timer.Reset(wait)
		}
		l.dispatch(work)
		select {
		case <-ctx.Done():
			l.release()
			return
		case <-l.d.wake:
			l.claim = true
		case <-l.d.kick:
			l.claim = true
		case <-timer.C:
			l.claim = true
		case id := <-done:
			l.finished(id)
		}
	}
	l.release()
}

// dispatch hands queued jobs to idle workers. It never blocks: work has room for every
// worker, and at most that many jobs are out.
func (l *loop) dispatch(work chan<- job) {
	for l.busy < l.d.cfg.Workers {
		j, ok := l.queues.pick(l.d.cfg.PerEndpoint)
		if !ok {
			return
		}
		if t, ok := l.current[j.webhookID]; ok {
			j.url, j.keys = t.url, t.keys
		}
		work <- j
		l.busy++
	}
}

// drain takes note of every attempt that has finished.
func (l *loop) drain(done <-chan int64) {
	for {
		select {
		case id := <-done:
			l.finished(id)
		default:
			return
		}
	}
}

func (l *loop) finished(webhookID int64) {
	l.busy--
	if l.queues.finished(webhookID, l.d.cfg.PerEndpoint*prefetchDepth) {
		l.claim = true
	}
}

// nextDue is how long until the earliest scheduled attempt (0 if none is scheduled).
func (l *loop) nextDue(ctx context.Context) (time.Duration, error) {
	now := l.d.now()
	next, err := l.d.db.R.NextDueAfter(ctx, sqlMillis(db.Millis(now)))
	if err != nil || next == 0 {
		return 0, err
	}
	return max(db.Time(next).Sub(now), time.Millisecond), nil
}
