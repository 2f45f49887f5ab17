package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

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
	if err := q.CreateEvent(ctx, db.CreateEventParams{ID: id, Type: eventType, Body: body, CreatedAt: ms}); err != nil {
		return "", fmt.Errorf("store event: %w", err)
	}
	hooks, err := q.ListWebhooksForEnqueue(ctx)
	if err != nil {
		return "", fmt.Errorf("list webhooks: %w", err)
	}
	for _, h := range hooks {
		patterns, err := parsePatterns(h.EventsJSON)
		if err != nil {
			return "", fmt.Errorf("webhook %d patterns: %w", h.ID, err)
		}
		if eventType == TestEvent || !Matches(patterns, eventType) {
			continue // test events are addressed to one webhook by SendTest, never fanned out
		}
		p := db.CreateDeliveryParams{EventID: id, WebhookID: h.ID, State: StatePending, CreatedAt: ms, UpdatedAt: ms}
		if h.State == WebhookActive {
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

// parsedPatterns holds the parsed form of each webhooks.events_json text seen, so that every
// event does not parse every webhook's patterns again inside the write transaction. Keyed by
// the text itself it is never stale; it holds one entry per distinct subscription, up to
// maxParsedPatterns (past that, texts are parsed on every call). The slices are shared: only
// read them.
var (
	parsedPatterns      sync.Map // events_json → []string
	parsedPatternsCount atomic.Int64
)

const maxParsedPatterns = 256

func parsePatterns(eventsJSON string) ([]string, error) {
	if p, ok := parsedPatterns.Load(eventsJSON); ok {
		return p.([]string), nil
	}
	var patterns []string
	if err := json.Unmarshal([]byte(eventsJSON), &patterns); err != nil {
		return nil, err
	}
	if parsedPatternsCount.Load() < maxParsedPatterns {
		if _, loaded := parsedPatterns.LoadOrStore(eventsJSON, patterns); !loaded {
			parsedPatternsCount.Add(1)
		}
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
	hooks, err := q.ListWebhooksForEnqueue(ctx)
	if err != nil {
		return false, err
	}
	for _, h := range hooks {
		patterns, err := parsePatterns(h.EventsJSON)
		if err != nil {
			return false, fmt.Errorf("webhook %d patterns: %w", h.ID, err)
		}
		if h.State == WebhookActive && Matches(patterns, eventType) {
			return true, nil
		}
	}
	return false, nil
}
