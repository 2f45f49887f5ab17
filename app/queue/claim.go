package queue

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"frontdesk/db"
)

// Store is one queue's table, as its sender's SQL (sqlc) reaches it. Every method runs inside a
// transaction of the dispatcher's (q). A row is pending with a due time, claimed (due time
// NULL: held by this process), or done; a series is a run of attempts along the schedule, which
// a resend restarts.
type Store[P, T, R any] interface {
	// Targets returns every target that may be sent to now, with what sending to it needs
	// (an endpoint's URL and keys, a mail server's settings). Rows of other targets stay put.
	Targets(ctx context.Context, q *db.Queries, now time.Time) (map[int64]T, error)
	// ClaimFirst claims up to limit due first attempts of target's rows (the first of their
	// series), and ClaimRetries up to limit due retries. Each returns them in due order.
	ClaimFirst(ctx context.Context, q *db.Queries, target int64, now time.Time, limit int) ([]Job[P], error)
	ClaimRetries(ctx context.Context, q *db.Queries, target int64, now time.Time, limit int) ([]Job[P], error)
	// NextRetry is the earliest retry of target scheduled after now (zero: none).
	NextRetry(ctx context.Context, q *db.Queries, target int64, now time.Time) (time.Time, error)
	// Release hands claimed row id back, due at due; ReleaseAll every claimed row, due at now
	// (at start: what a previous process held when it stopped).
	Release(ctx context.Context, q *db.Queries, id int64, due time.Time) error
	ReleaseAll(ctx context.Context, q *db.Queries, now time.Time) (int64, error)
	// Record writes finished attempts and their consequences. What it returns is acted on
	// once the transaction has committed.
	Record(ctx context.Context, q *db.Queries, batch []R) (Committed, error)
}

// Sender makes one attempt at a job for target t. It never fails: every failure is an outcome
// its result records (and the store's Record schedules the next attempt from).
type Sender[P, T, R any] interface {
	Send(j Job[P], t T) R
}

// Committed is what a recorded batch did, for after its commit.
type Committed struct {
	// Reschedule: a retry was scheduled or a target closed, so what is due changed.
	Reschedule bool
	// After, if set, runs once the transaction has committed (metrics, logs).
	After func()
}

// Ask is what the loop wants from one claim round: how much each target's lane takes, and
// which targets' retries to look at.
type Ask struct {
	// Room is the free room of each target the loop holds work for; a target not in it has an
	// empty lane and takes a full depth.
	Room map[int64]int
	// AllRetries looks for due retries of every target; otherwise only for those in More,
	// whose last round was cut short by their room.
	AllRetries bool
	More       map[int64]bool
}

// Claimed is what a claim round took out of the outbox.
type Claimed[P, T any] struct {
	Ask Ask
	// Targets is every open target with what sending to it needs now.
	Targets map[int64]T
	// Jobs are the claimed rows, each target's in due order, first attempts before retries;
	// First tells which are first attempts.
	Jobs  []Job[P]
	First map[int64]bool
	// Full holds the targets whose room this round filled or had none: the outbox may hold
	// more of their due work.
	Full map[int64]bool
	// NextDue is the earliest attempt scheduled after the round (zero: none). Only a round
	// with AllRetries looks.
	NextDue time.Time
	Err     error
}

func newClaimed[P, T any](ask Ask) Claimed[P, T] {
	return Claimed[P, T]{Ask: ask, First: map[int64]bool{}, Full: map[int64]bool{}}
}

// Round records the finished attempts of batch and claims due rows into memory, in one write
// transaction: for each open target, its due first attempts up to its room, then, where asked
// and room is left, its due retries. Claiming per target means one target's backlog never
// hides another's rows. The claim keeps the rows from being claimed twice and shows them in
// flight; whatever is claimed and never recorded is due again at the next start. Run calls it
// on the writer goroutine; it is exported for the senders' tests of their stores.
func (d *Dispatcher[P, T, R]) Round(ask Ask, batch []R) Claimed[P, T] {
	// Not the dispatcher's context: a round that started finishes, and the loop hands its jobs
	// back on shutdown, rather than leaving rows claimed until the next start.
	ctx := context.Background()
	now := d.now()
	out := newClaimed[P, T](ask)
	var done Committed
	out.Err = d.quietTx(ctx, func(q *db.Queries) error {
		var err error
		if done, err = d.store.Record(ctx, q, batch); err != nil {
			return err
		}
		return d.claim(ctx, q, now, &out)
	})
	if out.Err == nil {
		d.committed(done)
		return out
	}
	if len(batch) == 0 {
		return out
	}
	// The records may be what failed: write them the careful way, then claim on its own.
	d.recordBatch(batch)
	out = newClaimed[P, T](ask)
	out.Err = d.quietTx(ctx, func(q *db.Queries) error { return d.claim(ctx, q, now, &out) })
	return out
}

// claim fills out with what the round claims, inside the round's transaction.
func (d *Dispatcher[P, T, R]) claim(ctx context.Context, q *db.Queries, now time.Time, out *Claimed[P, T]) error {
	targets, err := d.store.Targets(ctx, q, now)
	if err != nil {
		return err
	}
	out.Targets = targets
	for _, id := range slices.Sorted(maps.Keys(targets)) {
		if err := d.claimFor(ctx, q, id, now, out); err != nil {
			return err
		}
		if !out.Ask.AllRetries {
			continue
		}
		next, err := d.store.NextRetry(ctx, q, id, now)
		if err != nil {
			return err
		}
		if !next.IsZero() && (out.NextDue.IsZero() || next.Before(out.NextDue)) {
			out.NextDue = next
		}
	}
	return nil
}

// claimFor claims one target's due work up to its room: first attempts, then retries where
// asked and room is left.
func (d *Dispatcher[P, T, R]) claimFor(ctx context.Context, q *db.Queries, id int64, now time.Time, out *Claimed[P, T]) error {
	room, known := out.Ask.Room[id]
	if !known {
		room = d.depth
	}
	if room <= 0 {
		out.Full[id] = true
		return nil
	}
	firsts, err := d.store.ClaimFirst(ctx, q, id, now, room)
	if err != nil {
		return err
	}
	slices.SortFunc(firsts, func(a, b Job[P]) int { return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.ID, b.ID)) })
	for _, j := range firsts {
		out.First[j.ID] = true
	}
	out.Jobs = append(out.Jobs, firsts...)
	found := len(firsts)
	if found < room && (out.Ask.AllRetries || out.Ask.More[id]) {
		retries, err := d.store.ClaimRetries(ctx, q, id, now, room-found)
		if err != nil {
			return err
		}
		out.Jobs = append(out.Jobs, retries...)
		found += len(retries)
	}
	if found >= room {
		out.Full[id] = true
	}
	return nil
}

// HandBack returns jobs that were claimed but never sent to the outbox, due when they were.
func (d *Dispatcher[P, T, R]) HandBack(ctx context.Context, jobs []Job[P]) error {
	if len(jobs) == 0 {
		return nil
	}
	return d.quietTx(ctx, func(q *db.Queries) error {
		for _, j := range jobs {
			due := j.Due
			if due.IsZero() {
				due = d.now()
			}
			if err := d.store.Release(ctx, q, j.ID, due); err != nil {
				return err
			}
		}
		return nil
	})
}
