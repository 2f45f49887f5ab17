package queue

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"frontdesk/db"
)

// Config tunes a Dispatcher.
type Config struct {
	// Name says which queue this is in logs ("webhook", "message").
	Name string
	// Workers is the most attempts in flight overall (< 1: 1); PerTarget the most to one
	// target (< 1: a quarter of Workers, at least 1). The cap is what keeps a hanging target
	// from taking every worker: it can hold PerTarget of them for a timeout at most, and the
	// rest keep serving the others.
	Workers   int
	PerTarget int
	// MaxExtra bounds the attempts in flight on extra slots, past the targets' shares of the
	// pool, all targets together (adapt.go; < 1: 16 × Workers).
	MaxExtra int
	Poll     time.Duration // longest sleep between looks at the outbox; <= 0: 1 s
}

const defaultPoll = time.Second

// prefetchDepth is how many attempts per allowed concurrent one a target's in-memory lane
// holds: enough that a busy target's workers never wait for a claim round, little enough that
// a hanging target parks only a few hundred rows in memory.
const prefetchDepth = 16

// Dispatcher sends one outbox: it claims due rows from SQLite, has sender make each attempt,
// records every attempt through store and runs the schedule. Run it once per database;
// d.AfterCommit(dispatcher.Wake) makes new rows leave at once.
type Dispatcher[P, T, R any] struct {
	db     *db.DB
	cfg    Config
	store  Store[P, T, R]
	sender Sender[P, T, R]
	log    *slog.Logger
	now    func() time.Time
	depth  int           // how many jobs a target's lane holds, in flight included
	wake   chan struct{} // commits by others: new rows, resends, reactivations
	kick   chan struct{} // the writer recorded a retry or closed a target
	// stats is what Target reports, published by the loop.
	stats stats
	// handoff takes new rows' first attempts from their writers in memory (handoff.go).
	handoff *handoff[P]
}

// New returns a dispatcher over d.
func New[P, T, R any](d *db.DB, cfg Config, store Store[P, T, R], sender Sender[P, T, R], log *slog.Logger, now func() time.Time) *Dispatcher[P, T, R] {
	cfg.Workers = max(cfg.Workers, 1)
	if cfg.PerTarget < 1 {
		cfg.PerTarget = max(cfg.Workers/4, 1)
	}
	cfg.PerTarget = min(cfg.PerTarget, cfg.Workers)
	if cfg.MaxExtra < 1 {
		cfg.MaxExtra = 16 * cfg.Workers
	}
	if cfg.Poll <= 0 {
		cfg.Poll = defaultPoll
	}
	if now == nil {
		now = time.Now
	}
	return &Dispatcher[P, T, R]{
		db: d, cfg: cfg, store: store, sender: sender, log: log, now: now,
		depth:   cfg.PerTarget * prefetchDepth,
		wake:    make(chan struct{}, 1),
		kick:    make(chan struct{}, 1),
		handoff: newHandoff[P](),
	}
}

// Config is the dispatcher's configuration with its defaults filled in.
func (d *Dispatcher[P, T, R]) Config() Config { return d.cfg }

// Wake makes the dispatcher look at the outbox now. It never blocks; wakes that arrive while
// one is pending merge into it.
func (d *Dispatcher[P, T, R]) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Kick makes the dispatcher look for due retries of every target now (something changed what
// is due: a retry was scheduled, a target opened or closed).
func (d *Dispatcher[P, T, R]) Kick() {
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

// Run sends until ctx is cancelled, then stops claiming, lets the attempts in flight finish
// (each is bounded by the sender's own timeout), records them, hands queued rows back to the
// outbox and returns nil.
func (d *Dispatcher[P, T, R]) Run(ctx context.Context) error {
	// Whatever a previous process had claimed when it stopped is due again: at-least-once.
	var n int64
	err := d.quietTx(ctx, func(q *db.Queries) error {
		var err error
		n, err = d.store.ReleaseAll(ctx, q, d.now())
		return err
	})
	if err != nil && ctx.Err() != nil {
		return nil // stopped before it began: it claimed nothing, and the next start releases
	}
	if err != nil {
		return err
	}
	if n > 0 {
		d.log.Info(d.cfg.Name+" attempts interrupted by the last stop are due again", "rows", n)
	}

	pool := make(chan work[P, T], d.cfg.Workers)
	// Room for every attempt that can be in flight, so no sender ever waits on the loop.
	done := make(chan finish, d.cfg.Workers+d.cfg.MaxExtra)
	results := make(chan R, 4*d.cfg.Workers)
	asks := make(chan Ask, 1) // the loop has at most one round asked for
	rounds := make(chan Claimed[P, T], 1)
	var workers, extras, writer sync.WaitGroup
	send := func(w work[P, T], extra bool) {
		began := time.Now() // the attempt's real duration, whatever clock d.now is
		r := d.sender.Send(w.job, w.target)
		healthy := true
		if h, ok := any(r).(Healthy); ok {
			healthy = h.Healthy()
		}
		results <- r
		done <- finish{target: w.job.Target, extra: extra, took: time.Since(began), healthy: healthy}
	}
	for range d.cfg.Workers {
		workers.Go(func() {
			for w := range pool {
				send(w, false)
			}
		})
	}
	l := d.newLoop()
	l.spawn = func(w work[P, T]) { extras.Go(func() { send(w, true) }) }
	writer.Go(func() { d.write(asks, results, rounds) })
	l.run(ctx, pool, done, asks, rounds)

	close(pool)
	workers.Wait()
	extras.Wait()
	close(results)
	close(asks)
	writer.Wait()
	d.log.Info(d.cfg.Name + " dispatcher stopped")
	return nil
}

// work is one job with where it goes.
type work[P, T any] struct {
	job    Job[P]
	target T
}

// finish is a finished attempt, for the loop: whose, on which kind of slot, how long it took
// and whether it was refused for overload.
type finish struct {
	target  int64
	extra   bool
	took    time.Duration
	healthy bool
}

// coalesceWindow is the least time between the starts of two claim rounds that commits
// trigger. Under load rows are committed far faster than a round is worth running for each;
// commits that come within the window share one round. It is also the most it adds to the
// time from a commit to the first attempt.
const coalesceWindow = time.Millisecond

// loop is the dispatcher's scheduling state, owned by the one goroutine that runs it. Claim
// rounds run on the writer goroutine (record.go), one at a time, so the loop keeps handing out
// work while SQLite is busy.
type loop[P, T, R any] struct {
	d     *Dispatcher[P, T, R]
	lanes *lanes[P]
	busy  int // attempts in flight on the shared pool
	extra int // attempts in flight on extra slots (adapt.go)
	// limits holds each open target's adaptive limit; spawn runs an attempt on an extra slot.
	limits *limits
	spawn  func(work[P, T])
	// current is every open target as of the last claim round. A job is sent with it rather
	// than with what it was claimed with, so a changed URL or a rotated secret applies to
	// queued jobs too.
	current map[int64]T

	room      map[int64]int // publishRoom's map, reused
	held      []heldJob[P]  // handed-off jobs waiting for a round (arrive)
	heldBy    map[int64]int // how many of held each target has
	started   int           // claim rounds started
	claiming  bool          // a round is running
	lastRound time.Time     // when the last round started
	// Why another round is wanted: woken, someone committed (new rows, resends,
	// reactivations); refill, a target with more due work has drained its lane halfway;
	// allRetries, retries may be due (at start, on the timer, after one was scheduled).
	woken, refill, allRetries bool
}

func (d *Dispatcher[P, T, R]) newLoop() *loop[P, T, R] {
	return &loop[P, T, R]{d: d, lanes: newLanes[P](), limits: newLimits(d.cfg.PerTarget), allRetries: true, room: map[int64]int{}, heldBy: map[int64]int{}}
}

func (l *loop[P, T, R]) run(ctx context.Context, work chan<- work[P, T], done <-chan finish, asks chan<- Ask, rounds <-chan Claimed[P, T]) {
	// poll fires at the next scheduled attempt or after cfg.Poll, whichever is sooner.
	poll := time.NewTimer(l.d.cfg.Poll)
	defer poll.Stop()
	// soon fires when a commit's coalescing window is over.
	soon := time.NewTimer(time.Hour)
	soon.Stop()
	defer soon.Stop()
	for {
		l.drain(done)
		// Stopping is looked at before any attempt starts: when the stop and a finished attempt
		// arrive together, select may take the attempt first, and the loop must not then hand
		// the freed worker another job.
		if ctx.Err() != nil {
			if l.claiming {
				l.take(<-rounds, poll)
			}
			l.release(l.d.handoff.close(l.d.db))
			return
		}
		l.dispatch(work)
		l.publishRoom()
		if !l.claiming {
			if wait := l.claimWait(); wait == 0 {
				l.startRound(asks)
			} else if wait > 0 {
				soon.Reset(wait)
			}
		}
		select {
		case <-ctx.Done(): // handled at the top
		case <-l.d.wake:
			l.woken = true
		case <-l.d.kick:
			l.allRetries = true
		case <-poll.C:
			l.allRetries = true
		case <-soon.C:
		case r := <-rounds:
			l.take(r, poll)
		case f := <-done:
			l.finished(f)
		case <-l.d.handoff.ready:
			l.arrive()
		}
	}
}

// publishRoom tells the hand-off how much each open target's lane can take now.
func (l *loop[P, T, R]) publishRoom() {
	room := l.room
	clear(room)
	for id := range l.current {
		n := l.depthOf(id)
		if ln := l.lanes.byTarget[id]; ln != nil {
			n -= ln.queued() + ln.inflight
		}
		room[id] = n - l.heldBy[id]
	}
	l.d.handoff.publish(room)
}

// arrive takes the first attempts handed off since the last look (handoff.go). Each waits
// for the next claim round to start and finish (see held).
func (l *loop[P, T, R]) arrive() {
	for _, j := range l.d.handoff.takeArrived() {
		l.held = append(l.held, heldJob[P]{job: j, after: l.started})
		l.heldBy[j.Target]++
	}
}

// releaseHeld queues the held jobs that round seq (just taken) has caught up with; a job whose
// target closed meanwhile goes back to the outbox, as a dropped lane's jobs do.
func (l *loop[P, T, R]) releaseHeld(seq int) {
	var back []Job[P]
	kept := l.held[:0]
	for _, h := range l.held {
		if h.after >= seq {
			kept = append(kept, h)
			continue
		}
		l.heldBy[h.job.Target]--
		if l.heldBy[h.job.Target] == 0 {
			delete(l.heldBy, h.job.Target)
		}
		if _, open := l.current[h.job.Target]; !open {
			back = append(back, h.job)
			continue
		}
		l.lanes.add(h.job, true)
	}
	clear(l.held[len(kept):])
	l.held = kept
	if err := l.d.HandBack(context.Background(), back); err != nil {
		l.d.log.Warn(l.d.cfg.Name+" rows not handed back; they are due again at the next start", "rows", len(back), "err", err)
	}
}

// heldJob is a handed-off job waiting for a claim round that started after it arrived: that
// round reads the targets after the job's row committed, so the job is sent with a target (URL,
// signing keys, bounds) at least as fresh as its row, exactly as a claimed job is. A secret
// rotated just before an event must sign it.
type heldJob[P any] struct {
	job   Job[P]
	after int // the number of rounds started when it arrived
}

// claimWait says when to start the next claim round: 0 now, > 0 after that long, < 0 not until
// something else happens.
func (l *loop[P, T, R]) claimWait() time.Duration {
	switch {
	case l.allRetries || l.refill:
		return 0
	case !l.woken || !l.hungry():
		return -1
	}
	return max(time.Until(l.lastRound.Add(coalesceWindow)), 0)
}

// hungry reports whether some open target has less than half a lane of work in memory, so
// that a commit may carry work it should not wait for. While every lane is at least half full,
// commits wait until one drains that far, and a busy dispatcher claims in large rounds.
func (l *loop[P, T, R]) hungry() bool {
	if l.current == nil {
		return true
	}
	for id := range l.current {
		if ln := l.lanes.byTarget[id]; ln == nil || ln.queued() < l.depthOf(id)/2 {
			return true
		}
	}
	return false
}

// startRound asks the writer for a claim round for what the lanes have room for. It never
// blocks: asks has room for the one round the loop may have asked for.
func (l *loop[P, T, R]) startRound(asks chan<- Ask) {
	ask := Ask{Room: map[int64]int{}, More: map[int64]bool{}, AllRetries: l.allRetries}
	for id, ln := range l.lanes.byTarget {
		ask.Room[id] = l.depthOf(id) - ln.queued() - ln.inflight
		if ln.more {
			ask.More[id] = true
		}
	}
	l.claiming, l.lastRound = true, time.Now()
	l.started++
	l.woken, l.refill, l.allRetries = false, false, false
	asks <- ask
}

// take puts a finished round's work into the lanes.
func (l *loop[P, T, R]) take(r Claimed[P, T], poll *time.Timer) {
	l.claiming = false
	if r.Err == nil {
		defer l.releaseHeld(l.started) // after the lanes of closed targets are dropped
	}
	if r.Err != nil {
		l.d.log.Error(l.d.cfg.Name+" claim", "err", r.Err)
		poll.Reset(l.d.cfg.Poll)
		return
	}
	l.current = r.Targets
	bounds := make(map[int64]int, len(r.Targets))
	for id, t := range r.Targets {
		bounds[id] = l.d.cfg.PerTarget
		if b, ok := any(t).(Bounded); ok {
			bounds[id] = max(b.MaxConcurrency(), 1)
		}
	}
	l.limits.setBounds(bounds)
	l.d.stats.keep(bounds)
	// Targets that are no longer open (deactivated, deleted, unconfigured) lose their queued
	// work. Handing it back is harmless and covers every case.
	var dropped []Job[P]
	for id := range l.lanes.byTarget {
		if _, ok := r.Targets[id]; !ok {
			dropped = append(dropped, l.lanes.drop(id)...)
		}
	}
	if err := l.d.HandBack(context.Background(), dropped); err != nil {
		l.d.log.Warn(l.d.cfg.Name+" rows not handed back; they are due again at the next start", "rows", len(dropped), "err", err)
	}
	for _, j := range r.Jobs {
		l.lanes.add(j, r.First[j.ID])
	}
	for id := range r.Targets {
		if r.Full[id] {
			l.lanes.lane(id).more = true
		} else if ln := l.lanes.byTarget[id]; ln != nil {
			ln.more = false
			l.lanes.forgetIfIdle(id)
		}
	}
	if r.Ask.AllRetries {
		wait := l.d.cfg.Poll
		if !r.NextDue.IsZero() {
			wait = min(wait, max(r.NextDue.Sub(l.d.now()), time.Millisecond))
		}
		poll.Reset(wait)
	}
}

// dispatch hands queued jobs to idle workers of the pool, and to extra slots for targets
// past their share (adapt.go). It never blocks: work has room for every worker, and at most
// that many pooled jobs are out.
func (l *loop[P, T, R]) dispatch(work chan<- work[P, T]) {
	for {
		j, extra, ok := l.lanes.take(l.limits.shareOf, l.busy < l.d.cfg.Workers, l.extra < l.d.cfg.MaxExtra && l.spawn != nil, l.limits.limit)
		if !ok {
			return
		}
		if extra {
			l.extra++
			l.spawn(workOf(j, l.current))
			continue
		}
		work <- workOf(j, l.current)
		l.busy++
	}
}

// depthOf is how many jobs target id's lane holds, in flight included: prefetchDepth per
// attempt it may have in flight now.
func (l *loop[P, T, R]) depthOf(id int64) int {
	return max(l.d.cfg.PerTarget, l.limits.limit(id)) * prefetchDepth
}

func workOf[P, T any](j Job[P], current map[int64]T) work[P, T] {
	return work[P, T]{job: j, target: current[j.Target]}
}

// drain takes note of every attempt that has finished.
func (l *loop[P, T, R]) drain(done <-chan finish) {
	for {
		select {
		case f := <-done:
			l.finished(f)
		default:
			return
		}
	}
}

func (l *loop[P, T, R]) finished(f finish) {
	if f.extra {
		l.extra--
	} else {
		l.busy--
	}
	backlog := false
	if ln := l.lanes.byTarget[f.target]; ln != nil {
		backlog = ln.queued() > 0 || ln.more
	}
	l.limits.observe(f.target, f.took, f.healthy, backlog)
	limit, bound := l.limits.Limit(f.target)
	l.d.stats.finished(f.target, time.Now(), limit, bound)
	if l.lanes.end(f.target, f.extra, l.depthOf(f.target)) {
		l.refill = true
	}
}

// release hands every queued job back on shutdown, with arrived, the hand-offs not yet queued.
// It runs after ctx is cancelled, so it gets a short context of its own; if it fails, the next
// start makes the rows due anyway.
func (l *loop[P, T, R]) release(arrived []Job[P]) {
	jobs := append(l.lanes.all(), arrived...)
	for _, h := range l.held {
		jobs = append(jobs, h.job)
	}
	if len(jobs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := l.d.HandBack(ctx, jobs); err != nil {
		l.d.log.Warn(l.d.cfg.Name+" rows not handed back; they are due again at the next start", "rows", len(jobs), "err", err)
	}
}
