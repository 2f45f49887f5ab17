package webhook

import (
	"context"
	"time"

	"frontdesk/db"
)

// target is where and how one webhook's deliveries are sent right now.
type target struct {
	url  string
	keys [][]byte
}

// claimDue moves due deliveries from the outbox into the in-memory queues. The outbox is read
// per webhook through the (webhook_id, next_attempt_at) index, up to the room in that
// webhook's queue, so one endpoint's backlog never hides another's events; then the chosen
// rows are claimed (next_attempt_at = NULL) in one short write transaction.
func (l *loop) claimDue(ctx context.Context) error {
	now := l.d.now()
	targets, err := l.targets(ctx, now)
	if err != nil {
		return err
	}
	l.current = targets
	// Webhooks that are no longer active (deactivated, deleted) lose their queued work. Their
	// rows are missed or gone; handing them back is harmless and covers any other case.
	var dropped []job
	for id := range l.queues.hooks {
		if _, ok := targets[id]; !ok {
			dropped = append(dropped, l.queues.drop(id)...)
		}
	}
	if err := l.handBack(ctx, dropped); err != nil {
		return err
	}

	depth := l.d.cfg.PerEndpoint * prefetchDepth
	nowMs := sqlMillis(db.Millis(now))
	var candidates []job
	isFirst := map[int64]bool{}
	for id, t := range targets {
		h := l.queues.hooks[id]
		room := depth
		if h != nil {
			room -= h.queued() + h.inflight
		}
		if room <= 0 {
			h.more = true
			continue
		}
		first, err := l.d.db.R.ListDueFirstAttempts(ctx, db.ListDueFirstAttemptsParams{WebhookID: id, Now: nowMs, Lim: int64(room)})
		if err != nil {
			return err
		}
		for _, r := range first {
			candidates = append(candidates, newJob(id, t, db.ListDueRetriesRow(r)))
			isFirst[r.ID] = true
		}
		found := len(first)
		if found < room {
			retries, err := l.d.db.R.ListDueRetries(ctx, db.ListDueRetriesParams{WebhookID: id, Now: nowMs, Lim: int64(room - found)})
			if err != nil {
				return err
			}
			for _, r := range retries {
				candidates = append(candidates, newJob(id, t, r))
			}
			found += len(retries)
		}
		if found == room {
			l.queues.hook(id).more = true
		} else if h != nil {
			h.more = false
		}
	}
	if len(candidates) == 0 {
		return nil
	}

	ids := make([]int64, len(candidates))
	for i, c := range candidates {
		ids[i] = c.deliveryID
	}
	// One statement on the writer, outside db.InTx: the dispatcher's own writes must not wake
	// it (see quietTx).
	claimed, err := l.d.db.W.ClaimDeliveries(ctx, ids)
	if err != nil {
		return err
	}
	// Only what the update actually claimed is queued: a concurrent resend, reactivation or
	// delete may have changed a row since it was read.
	ok := make(map[int64]bool, len(claimed))
	for _, id := range claimed {
		ok[id] = true
	}
	for _, c := range candidates {
		if ok[c.deliveryID] {
			l.queues.add(c, isFirst[c.deliveryID])
		}
	}
	return nil
}

func newJob(webhookID int64, t target, r db.ListDueRetriesRow) job {
	return job{
		deliveryID: r.ID, webhookID: webhookID, eventID: r.EventID, body: r.Body,
		attempt: int(r.Attempts) + 1, series: int(r.Attempts-r.SeriesBase) + 1,
		seriesAt: db.Time(r.SeriesAt), due: nullTime(r.NextAttemptAt),
		url: t.url, keys: t.keys,
	}
}

// targets loads every active webhook's URL and currently valid signing keys. Parsed keys are
// cached by secret so a claim round costs one small query.
func (l *loop) targets(ctx context.Context, now time.Time) (map[int64]target, error) {
	rows, err := l.d.db.R.ListDispatchTargets(ctx, sqlMillis(db.Millis(now)))
	if err != nil {
		return nil, err
	}
	out := make(map[int64]target, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		key, ok := l.keys[r.Secret]
		if !ok {
			key, err = ParseSecret(r.Secret)
			if err != nil {
				l.d.log.Error("webhook secret unusable; not signing with it", "webhook", r.ID, "err", err)
				continue
			}
			l.keys[r.Secret] = key
		}
		seen[r.Secret] = true
		t := out[r.ID]
		t.url = r.URL
		t.keys = append(t.keys, key)
		out[r.ID] = t
	}
	for s := range l.keys {
		if !seen[s] {
			delete(l.keys, s)
		}
	}
	return out, nil
}

// handBack returns jobs that were claimed but never sent to the outbox, due when they were.
func (l *loop) handBack(ctx context.Context, jobs []job) error {
	if len(jobs) == 0 {
		return nil
	}
	return l.d.quietTx(ctx, func(q *db.Queries) error {
		for _, j := range jobs {
			due := j.due
			if due.IsZero() {
				due = l.d.now()
			}
			if err := q.ReleaseDelivery(ctx, db.ReleaseDeliveryParams{ID: j.deliveryID, NextAttemptAt: sqlMillis(db.Millis(due))}); err != nil {
				return err
			}
		}
		return nil
	})
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
	if err := l.handBack(ctx, jobs); err != nil {
		l.d.log.Warn("webhook deliveries not handed back; they are due again at the next start", "deliveries", len(jobs), "err", err)
	}
}
