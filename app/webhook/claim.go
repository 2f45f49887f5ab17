package webhook

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"slices"
	"time"

	"frontdesk/db"
)

// target is where and how one webhook's deliveries are sent right now.
type target struct {
	url  string
	keys [][]byte
}

// claimAsk is what the loop wants from one claim round: how much each webhook's queue takes,
// and which webhooks' retries to look at.
type claimAsk struct {
	// room is the free room of each webhook the loop holds work for; a webhook not in it has
	// an empty queue and takes a full depth.
	room map[int64]int
	// allRetries looks for due retries of every webhook; otherwise only for those in more,
	// whose last round was cut short by their room.
	allRetries bool
	more       map[int64]bool
}

// claimed is what a claim round took out of the outbox.
type claimed struct {
	ask claimAsk
	// targets is every active webhook with its current URL and signing keys.
	targets map[int64]target
	// jobs are the claimed deliveries, each webhook's in due order, first attempts before
	// retries; first tells which are first attempts.
	jobs  []job
	first map[int64]bool
	// full holds the webhooks whose room this round filled or had none: the outbox may hold
	// more of their due work.
	full map[int64]bool
	// nextDue is the earliest attempt scheduled after the round (zero: none). Only a round with
	// allRetries looks.
	nextDue time.Time
	err     error
}

// claimer runs the claim rounds the loop asks for, one at a time, on the dispatcher's writer
// goroutine (record.go), so that the loop keeps handing out work while SQLite is busy.
type claimer struct {
	d     *Dispatcher
	depth int
	keys  map[string][]byte // parsed signing keys by secret
}

// round records the finished attempts of batch and claims due deliveries into memory, in one
// write transaction: for each active webhook, its due first attempts up to its room, then,
// where asked and room is left, its due retries. Reading per webhook through
// deliveries_pending (migration 00100) means one endpoint's backlog never hides another's
// events and a round reads only the rows it takes. The claim (next_attempt_at = NULL) keeps the
// rows from being claimed twice and shows them in flight; whatever is claimed and never
// recorded is due again at the next start (at-least-once).
func (c *claimer) round(ask claimAsk, batch []result) claimed {
	// Not the dispatcher's context: a round that started finishes, and the loop hands its jobs
	// back on shutdown, rather than leaving rows claimed until the next start.
	ctx := context.Background()
	now := c.d.now()
	var tally outcomeTally
	out := newClaimed(ask)
	out.err = c.d.quietTx(ctx, func(q *db.Queries) error {
		if err := c.d.apply(ctx, q, batch, &tally); err != nil {
			return err
		}
		return c.claim(ctx, q, now, &out)
	})
	if out.err == nil {
		c.d.committed(tally)
		return out
	}
	if len(batch) == 0 {
		return out
	}
	// The records may be what failed: write them the careful way, then claim on its own.
	c.d.recordBatch(batch)
	out = newClaimed(ask)
	out.err = c.d.quietTx(ctx, func(q *db.Queries) error { return c.claim(ctx, q, now, &out) })
	return out
}

func newClaimed(ask claimAsk) claimed {
	return claimed{ask: ask, first: map[int64]bool{}, full: map[int64]bool{}}
}

// claim fills out with what the round claims, inside the round's transaction.
func (c *claimer) claim(ctx context.Context, q *db.Queries, now time.Time, out *claimed) error {
	nowMs := sqlMillis(db.Millis(now))
	targets, err := c.targets(ctx, q, now)
	if err != nil {
		return err
	}
	out.targets = targets
	for _, id := range slices.Sorted(maps.Keys(targets)) {
		if err := c.claimFor(ctx, q, id, out.ask, nowMs, out); err != nil {
			return err
		}
		if !out.ask.allRetries {
			continue
		}
		next, err := q.NextRetryAfter(ctx, db.NextRetryAfterParams{WebhookID: id, Now: nowMs})
		if err != nil {
			return err
		}
		if next > 0 && (out.nextDue.IsZero() || db.Time(next).Before(out.nextDue)) {
			out.nextDue = db.Time(next)
		}
	}
	return nil
}

// claimFor claims one webhook's due work up to its room: first attempts, then retries where
// asked and room is left.
func (c *claimer) claimFor(ctx context.Context, q *db.Queries, id int64, ask claimAsk, nowMs sql.NullInt64, out *claimed) error {
	room, known := ask.room[id]
	if !known {
		room = c.depth
	}
	if room <= 0 {
		out.full[id] = true
		return nil
	}
	rows, err := q.ClaimDueFirstAttempts(ctx, db.ClaimDueFirstAttemptsParams{WebhookID: id, Now: nowMs, Lim: int64(room)})
	if err != nil {
		return err
	}
	firsts := make([]job, len(rows))
	for i, r := range rows {
		firsts[i] = firstJob(id, r)
		out.first[r.ID] = true
	}
	// RETURNING comes in no particular order.
	slices.SortFunc(firsts, func(a, b job) int {
		return cmp.Or(a.due.Compare(b.due), cmp.Compare(a.deliveryID, b.deliveryID))
	})
	out.jobs = append(out.jobs, firsts...)
	found := len(rows)
	if found < room && (ask.allRetries || ask.more[id]) {
		n, err := c.claimRetries(ctx, q, id, nowMs, room-found, out)
		if err != nil {
			return err
		}
		found += n
	}
	if found >= room {
		out.full[id] = true
	}
	return nil
}

// claimRetries claims up to lim due retries of one webhook and reports how many. They are read
// first and claimed by id in the same transaction, so each keeps the time it became due.
func (c *claimer) claimRetries(ctx context.Context, q *db.Queries, webhookID int64, nowMs sql.NullInt64, lim int, out *claimed) (int, error) {
	rows, err := q.ListDueRetries(ctx, db.ListDueRetriesParams{WebhookID: webhookID, Now: nowMs, Lim: int64(lim)})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		ok, err := q.ClaimDelivery(ctx, r.ID)
		if err != nil {
			return n, err
		}
		if ok == 1 {
			out.jobs = append(out.jobs, retryJob(webhookID, r))
			n++
		}
	}
	return n, nil
}

func firstJob(webhookID int64, r db.ClaimDueFirstAttemptsRow) job {
	seriesAt := db.Time(r.CreatedAt)
	if r.RestartedAt.Valid {
		seriesAt = db.Time(r.RestartedAt.Int64)
	}
	return job{
		deliveryID: r.ID, webhookID: webhookID, eventID: r.EventID, body: r.Body,
		attempt: int(r.Attempts) + 1, series: 1, seriesAt: seriesAt, due: seriesAt,
	}
}

func retryJob(webhookID int64, r db.ListDueRetriesRow) job {
	return job{
		deliveryID: r.ID, webhookID: webhookID, eventID: r.EventID, body: r.Body,
		attempt: int(r.Attempts) + 1, series: int(r.Attempts-r.SeriesBase) + 1,
		seriesAt: db.Time(r.SeriesAt), due: nullTime(r.NextAttemptAt),
	}
}

// targets loads every active webhook's URL and currently valid signing keys. Parsed keys are
// cached by secret, so this costs one small query.
func (c *claimer) targets(ctx context.Context, q *db.Queries, now time.Time) (map[int64]target, error) {
	rows, err := q.ListDispatchTargets(ctx, sqlMillis(db.Millis(now)))
	if err != nil {
		return nil, err
	}
	out := make(map[int64]target, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		key, ok := c.keys[r.Secret]
		if !ok {
			key, err = ParseSecret(r.Secret)
			if err != nil {
				c.d.log.Error("webhook secret unusable; not signing with it", "webhook", r.ID, "err", err)
				continue
			}
			c.keys[r.Secret] = key
		}
		seen[r.Secret] = true
		t := out[r.ID]
		t.url = r.URL
		t.keys = append(t.keys, key)
		out[r.ID] = t
	}
	for s := range c.keys {
		if !seen[s] {
			delete(c.keys, s)
		}
	}
	return out, nil
}

// handBack returns jobs that were claimed but never sent to the outbox, due when they were.
func (d *Dispatcher) handBack(ctx context.Context, jobs []job) error {
	if len(jobs) == 0 {
		return nil
	}
	return d.quietTx(ctx, func(q *db.Queries) error {
		for _, j := range jobs {
			due := j.due
			if due.IsZero() {
				due = d.now()
			}
			if err := q.ReleaseDelivery(ctx, db.ReleaseDeliveryParams{ID: j.deliveryID, NextAttemptAt: sqlMillis(db.Millis(due))}); err != nil {
				return err
			}
		}
		return nil
	})
}
