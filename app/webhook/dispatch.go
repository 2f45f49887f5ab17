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
	kick    chan struct{} // the writer recorded a retry or deactivated a webhook
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
		// Idle connections are kept per host, and several webhooks often share one (a
		// receiver with a path per endpoint, an automation platform): keep one per worker,
		// or connections are closed and dialled again all the time.
		client:  NewHTTPClient(cfg.Timeout, cfg.AllowPrivate, cfg.Workers),
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
	asks := make(chan claimAsk, 1) // the loop has at most one round asked for
	rounds := make(chan claimed, 1)
	var workers, writer sync.WaitGroup
	for range d.cfg.Workers {
		workers.Go(func() {
			for j := range work {
				results <- d.attempt(j)
				done <- j.webhookID
			}
		})
	}
	l := newLoop(d)
	writer.Go(func() { d.write(l.claimer, asks, results, rounds) })
	l.run(ctx, work, done, asks, rounds)

	close(work)
	workers.Wait()
	close(results)
	close(asks)
	writer.Wait()
	d.log.Info("webhook dispatcher stopped")
	return nil
}

// coalesceWindow is the least time between the starts of two claim rounds that commits
// trigger. Under load events are committed far faster than a round is worth running for each;
// commits that come within the window share one round. It is also the most it adds to the
// time from a commit to the first attempt.
const coalesceWindow = time.Millisecond

// loop is the dispatcher's scheduling state, owned by the one goroutine that runs it. Claim
// rounds run on the writer goroutine (record.go), one at a time, so the loop keeps handing out
// work while SQLite is busy.
type loop struct {
	d       *Dispatcher
	claimer *claimer
	queues  *queues
	depth   int // how many jobs a webhook's queue holds, in flight included
	busy    int
	// current is every active webhook's target as of the last claim round. A job is sent
	// with it rather than with what it was claimed with, so a changed URL or a rotated secret
	// applies to queued jobs too.
	current map[int64]target

	claiming  bool      // a round is running
	lastRound time.Time // when the last round started
	// Why another round is wanted: woken, someone committed (new events, resends,
	// reactivations); refill, a webhook with more due work has drained its queue halfway;
	// allRetries, retries may be due (at start, on the timer, after one was scheduled).
	woken, refill, allRetries bool
}

func newLoop(d *Dispatcher) *loop {
	depth := d.cfg.PerEndpoint * prefetchDepth
	return &loop{
		d: d, claimer: &claimer{d: d, depth: depth, keys: map[string][]byte{}},
		queues: newQueues(), depth: depth, allRetries: true,
	}
}

func (l *loop) run(ctx context.Context, work chan<- job, done <-chan int64, asks chan<- claimAsk, rounds <-chan claimed) {
	// poll fires at the next scheduled attempt or after cfg.Poll, whichever is sooner.
	poll := time.NewTimer(l.d.cfg.Poll)
	defer poll.Stop()
	// soon fires when a commit's coalescing window is over.
	soon := time.NewTimer(time.Hour)
	soon.Stop()
	defer soon.Stop()
	for {
		l.drain(done)
		l.dispatch(work)
		if !l.claiming {
			if wait := l.claimWait(); wait == 0 {
				l.startRound(asks)
			} else if wait > 0 {
				soon.Reset(wait)
			}
		}
		select {
		case <-ctx.Done():
			if l.claiming {
				l.take(<-rounds, poll)
			}
			l.release()
			return
		case <-l.d.wake:
			l.woken = true
		case <-l.d.kick:
			l.allRetries = true
		case <-poll.C:
			l.allRetries = true
		case <-soon.C:
		case r := <-rounds:
			l.take(r, poll)
		case id := <-done:
			l.finished(id)
		}
	}
}

// claimWait says when to start the next claim round: 0 now, > 0 after that long, < 0 not until
// something else happens.
func (l *loop) claimWait() time.Duration {
	switch {
	case l.allRetries || l.refill:
		return 0
	case !l.woken || !l.hungry():
		return -1
	}
	return max(time.Until(l.lastRound.Add(coalesceWindow)), 0)
}

// hungry reports whether some active webhook has less than half a queue of work in memory, so
// that a commit may carry work it should not wait for. While every queue is at least half
// full, commits wait until one drains that far, and a busy dispatcher claims in large rounds.
func (l *loop) hungry() bool {
	if l.current == nil {
		return true
	}
	for id := range l.current {
		if h := l.queues.hooks[id]; h == nil || h.queued() < l.depth/2 {
			return true
		}
	}
	return false
}

// startRound asks the writer for a claim round for what the queues have room for. It never
// blocks: asks has room for the one round the loop may have asked for.
func (l *loop) startRound(asks chan<- claimAsk) {
	ask := claimAsk{room: map[int64]int{}, more: map[int64]bool{}, allRetries: l.allRetries}
	for id, h := range l.queues.hooks {
		ask.room[id] = l.depth - h.queued() - h.inflight
		if h.more {
			ask.more[id] = true
		}
	}
	l.claiming, l.lastRound = true, time.Now()
	l.woken, l.refill, l.allRetries = false, false, false
	asks <- ask
}

// take puts a finished round's work into the queues.
func (l *loop) take(r claimed, poll *time.Timer) {
	l.claiming = false
	if r.err != nil {
		l.d.log.Error("webhook claim", "err", r.err)
		poll.Reset(l.d.cfg.Poll)
		return
	}
	l.current = r.targets
	// Webhooks that are no longer active (deactivated, deleted) lose their queued work. Their
	// rows are missed or gone; handing them back is harmless and covers any other case.
	var dropped []job
	for id := range l.queues.hooks {
		if _, ok := r.targets[id]; !ok {
			dropped = append(dropped, l.queues.drop(id)...)
		}
	}
	if err := l.d.handBack(context.Background(), dropped); err != nil {
		l.d.log.Warn("webhook deliveries not handed back; they are due again at the next start", "deliveries", len(dropped), "err", err)
	}
	for _, j := range r.jobs {
		l.queues.add(j, r.first[j.deliveryID])
	}
	for id := range r.targets {
		if r.full[id] {
			l.queues.hook(id).more = true
		} else if h := l.queues.hooks[id]; h != nil {
			h.more = false
			l.queues.forgetIfIdle(id)
		}
	}
	if r.ask.allRetries {
		wait := l.d.cfg.Poll
		if !r.nextDue.IsZero() {
			wait = min(wait, max(r.nextDue.Sub(l.d.now()), time.Millisecond))
		}
		poll.Reset(wait)
	}
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
	if l.queues.finished(webhookID, l.depth) {
		l.refill = true
	}
}

// release hands every queued job back on shutdown. It runs after ctx is cancelled, so it gets
// a short context of its own; if it fails, the next start makes the rows due anyway.
func (l *loop) release() {
	jobs := l.queues.all()
	if len(jobs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := l.d.handBack(ctx, jobs); err != nil {
		l.d.log.Warn("webhook deliveries not handed back; they are due again at the next start", "deliveries", len(jobs), "err", err)
	}
}
