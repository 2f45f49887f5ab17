package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/queue"
	"frontdesk/db"
)

// Envelope is the JSON body of every delivery.
type Envelope struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// Delivery states, mirrored by the CHECK on deliveries.state.
const (
	StatePending   = "pending"
	StateSucceeded = "succeeded"
	StateFailed    = "failed"
	StateMissed    = "missed"
)

// Webhook states, mirrored by the CHECK on webhooks.state.
const (
	WebhookActive      = "active"
	WebhookDeactivated = "deactivated"
)

// Enqueue writes an event and one delivery per matching webhook into the outbox. Call it with
// the Queries of the transaction that makes the change, so the change and its event commit
// together or not at all (docs/webhooks.md). A deactivated webhook gets a "missed" delivery, which
// reactivation can replay. The body is rendered once here, so every attempt to every endpoint
// sends the same bytes under the same webhook-id.
func Enqueue(ctx context.Context, q *db.Queries, now time.Time, eventType string, data any) (string, error) {
	id, err := NewEventID(now)
	if err != nil {
		return "", err
	}
	body, err := encodeEnvelope(Envelope{Type: eventType, Timestamp: now.UTC().Format("2006-01-02T15:04:05.000Z"), Data: data})
	if err != nil {
		return "", fmt.Errorf("event %s: %w", eventType, err)
	}
	ms := db.Millis(now)
	running := runningOn(q)
	if err := q.CreateEvent(ctx, db.CreateEventParams{ID: id, Type: eventType, Body: body, CreatedAt: ms}); err != nil {
		return "", fmt.Errorf("store event: %w", err)
	}
	hooks, err := enqueueHooks(ctx, q)
	if err != nil {
		return "", err
	}
	for _, h := range hooks {
		if h.err != nil {
			return "", h.err
		}
		if eventType == TestEvent || !Matches(h.patterns, eventType) {
			continue // test events are addressed to one webhook by SendTest, never fanned out
		}
		if h.active && running != nil {
			if handOff, ok := running.Reserve(q, h.id); ok {
				// Inserted claimed and handed to the dispatcher once committed: no claim round
				// writes it again (app/queue/handoff.go).
				did, err := q.CreateDeliveryClaimed(ctx, db.CreateDeliveryClaimedParams{EventID: id, WebhookID: h.id, CreatedAt: ms})
				if err != nil {
					return "", fmt.Errorf("store delivery: %w", err)
				}
				at := db.Time(ms)
				handOff(queue.Job[Payload]{
					ID: did, Target: h.id, Payload: Payload{EventID: id, Body: body},
					Attempt: 1, Series: 1, SeriesAt: at, Due: at,
				})
				continue
			}
		}
		p := db.CreateDeliveryParams{EventID: id, WebhookID: h.id, State: StatePending, CreatedAt: ms, UpdatedAt: ms}
		if h.active {
			p.NextAttemptAt = db.NullMillis(&now)
		} else {
			p.State = StateMissed
		}
		if err := q.CreateDelivery(ctx, p); err != nil {
			return "", fmt.Errorf("store delivery: %w", err)
		}
	}
	return id, nil
}

// Payload is what a delivery carries to its attempts: its event's id and exact body.
type Payload struct {
	EventID string
	Body    []byte
}

// Handoff is how Enqueue gives a new delivery to the dispatcher running in this process on
// the same database, in memory, once its write has committed, instead of leaving it for a claim
// round (app/queue/handoff.go; docs/webhooks.md, "How a first attempt reaches the
// dispatcher"). The process's wiring makes one per database (NewHandoff) and hands it to the
// dispatcher, which serves it while it runs.
type Handoff = queue.HandoffPoint[Reserver]

// Reserver is the running dispatcher's side of a hand-off: app/queue's Dispatcher.Reserve.
type Reserver interface {
	Reserve(q *db.Queries, webhookID int64) (handOff func(queue.Job[Payload]), ok bool)
}

// handoffKey names the webhook outbox's hand-off on a database (db.DB.SetHandoff).
type handoffKey struct{}

// NewHandoff makes the hand-off of d's webhook deliveries: from now on Enqueue, writing to d,
// finds through it the dispatcher serving it.
func NewHandoff(d *db.DB) *Handoff { return queue.NewHandoffPoint[Reserver](d, handoffKey{}) }

// runningOn is the dispatcher serving the hand-off of the database q writes to, nil if none.
func runningOn(q *db.Queries) Reserver {
	r, _ := queue.RunningOn[Reserver](q, handoffKey{})
	return r
}

// enqueueHook is a webhook as the fan-out sees it, its events_json parsed once.
type enqueueHook struct {
	id       int64
	active   bool
	patterns []string
	err      error // events_json did not parse: an event that reaches this webhook fails
}

// enqueueHooks returns the webhooks in id order as q's transaction sees them. Every event reads
// them inside the writer's transaction, so the parsed list is kept under its change counter
// (migration 00381): one counter read per event instead of the table and a parse per webhook.
// The list is shared by every caller: only read it.
func enqueueHooks(ctx context.Context, q *db.Queries) ([]enqueueHook, error) {
	version, err := q.EtagVersion(ctx, db.EtagVersionParams{Kind: "webhooks_enqueue", RefID: 0})
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	return db.Kept(q, "webhook.enqueue", version, func() ([]enqueueHook, error) {
		rows, err := q.ListWebhooksForEnqueue(ctx)
		if err != nil {
			return nil, fmt.Errorf("list webhooks: %w", err)
		}
		hooks := make([]enqueueHook, len(rows))
		for i, r := range rows {
			hooks[i] = enqueueHook{id: r.ID, active: r.State == WebhookActive}
			if hooks[i].patterns, err = parsePatterns(r.EventsJSON); err != nil {
				hooks[i].err = fmt.Errorf("webhook %d patterns: %w", r.ID, err)
			}
		}
		return hooks, nil
	})
}

func parsePatterns(eventsJSON string) ([]string, error) {
	var patterns []string
	if err := json.Unmarshal([]byte(eventsJSON), &patterns); err != nil {
		return nil, err
	}
	return patterns, nil
}

func encodeEnvelope(e Envelope) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewEventID returns "evt_" and 24 base62 characters: the first 8 are the millisecond of now
// (sortable: the alphabet is in byte order), the other 16 random (≈95 bits). Ids made in time
// order land at the end of the events' primary-key index and of the deliveries' event index,
// so a batch of events writes a page or two there, not one page per event; and an id alone
// still cannot be guessed.
func NewEventID(now time.Time) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	out := make([]byte, 28)
	copy(out, "evt_")
	ms := uint64(max(now.UnixMilli(), 0))
	for i := 11; i >= 4; i-- {
		out[i] = idAlphabet[ms%uint64(len(idAlphabet))]
		ms /= uint64(len(idAlphabet))
	}
	for i, c := range b {
		out[12+i] = idAlphabet[int(c)%len(idAlphabet)]
	}
	return string(out), nil
}

// Subscribed reports whether an active webhook would receive events of eventType, so a page
// tells the owner that webhooks are told only when one is listening.
func Subscribed(ctx context.Context, q *db.Queries, eventType string) (bool, error) {
	hooks, err := enqueueHooks(ctx, q)
	if err != nil {
		return false, err
	}
	for _, h := range hooks {
		if h.err != nil {
			return false, h.err
		}
		if h.active && Matches(h.patterns, eventType) {
			return true, nil
		}
	}
	return false, nil
}
