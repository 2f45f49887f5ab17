package webhook

import (
	"context"
	"fmt"
	"math"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/db"
)

// LogTextRefresh is how stale a stored log text's last use (last_used_at) may get before the
// dispatcher, recording an attempt that uses it again, refreshes it; the pruner keeps texts that
// much longer than the attempts (00332_delivery_log_texts.sql).
const LogTextRefresh = time.Hour

// MaxResponseBody is how much of the body a receiver sends back the delivery log keeps of an
// attempt (the dispatcher reads no more of it for the log).
const MaxResponseBody = 4 << 10

// Delivery is one event for one endpoint: the delivery log's row.
type Delivery struct {
	ID        int64
	WebhookID int64
	EventID   string // the webhook-id header receivers see
	EventType string
	State     string // StatePending, StateSucceeded, StateFailed or StateMissed
	// InFlight is set while the dispatcher holds the delivery (queued in memory or being sent).
	InFlight bool
	// Attempts counts every attempt ever made; SeriesAttempts those of the current series
	// (resend, recover and replay start a new series and restart the schedule).
	Attempts       int
	SeriesAttempts int
	NextAttemptAt  time.Time // zero unless pending and not in flight
	LastAttemptAt  time.Time // zero before the first attempt
	LastStatus     int       // HTTP status of the latest attempt; 0 for none or no response
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func deliveryFromRow(r db.ListWebhookDeliveriesRow) Delivery {
	return Delivery{
		ID: r.ID, WebhookID: r.WebhookID, EventID: r.EventID, EventType: r.EventType, State: r.State,
		InFlight: r.State == StatePending && !r.NextAttemptAt.Valid,
		Attempts: int(r.Attempts), SeriesAttempts: int(r.Attempts - r.SeriesBase),
		NextAttemptAt: nullTime(r.NextAttemptAt), LastAttemptAt: nullTime(r.LastAttemptAt),
		LastStatus: int(r.LastStatus.Int64),
		CreatedAt:  db.Time(r.CreatedAt), UpdatedAt: db.Time(r.UpdatedAt),
	}
}

// DeliveryFilter selects one endpoint's deliveries for the log, newest first.
type DeliveryFilter struct {
	WebhookID int64
	State     string    // "" for every state
	EventType string    // "" for every type
	From, To  time.Time // created in [From, To); zero means unbounded
	Page      int       // 1-based; < 1 means 1
	PerPage   int       // < 1 means 30; at most 100
}

// DeliveryPage is one page of the log.
type DeliveryPage struct {
	Deliveries []Delivery
	Total      int
	Page       int
	PerPage    int
	TotalPages int
}

// Deliveries returns a page of an endpoint's delivery log.
func (m *Manager) Deliveries(ctx context.Context, f DeliveryFilter) (DeliveryPage, error) {
	if _, err := m.db.R.GetWebhook(ctx, f.WebhookID); err != nil {
		if db.IsNotFound(err) {
			return DeliveryPage{}, notFound("webhook", f.WebhookID)
		}
		return DeliveryPage{}, err
	}
	if f.State != "" && f.State != StatePending && f.State != StateSucceeded && f.State != StateFailed && f.State != StateMissed {
		return DeliveryPage{}, fmt.Errorf("%w: unknown delivery state %q", ErrInvalidState, f.State)
	}
	page := DeliveryPage{Page: max(f.Page, 1), PerPage: f.PerPage}
	if page.PerPage < 1 {
		page.PerPage = 30
	}
	page.PerPage = min(page.PerPage, 100)
	from, to := int64(0), int64(math.MaxInt64)
	if !f.From.IsZero() {
		from = db.Millis(f.From)
	}
	if !f.To.IsZero() {
		to = db.Millis(f.To)
	}
	total, err := m.db.R.CountWebhookDeliveries(ctx, db.CountWebhookDeliveriesParams{
		WebhookID: f.WebhookID, State: f.State, EventType: f.EventType, FromMs: from, ToMs: to,
	})
	if err != nil {
		return page, err
	}
	page.Total = int(total)
	page.TotalPages = (page.Total + page.PerPage - 1) / page.PerPage
	rows, err := m.db.R.ListWebhookDeliveries(ctx, db.ListWebhookDeliveriesParams{
		WebhookID: f.WebhookID, State: f.State, EventType: f.EventType, FromMs: from, ToMs: to,
		Lim: int64(page.PerPage), Off: int64(page.Page-1) * int64(page.PerPage),
	})
	if err != nil {
		return page, err
	}
	page.Deliveries = make([]Delivery, len(rows))
	for i, r := range rows {
		page.Deliveries[i] = deliveryFromRow(r)
	}
	return page, nil
}

// FindEvent returns every delivery of one event (search by the webhook-id a receiver logged).
func (m *Manager) FindEvent(ctx context.Context, eventID string) ([]Delivery, error) {
	rows, err := m.db.R.ListEventDeliveries(ctx, eventID)
	if err != nil {
		return nil, err
	}
	out := make([]Delivery, len(rows))
	for i, r := range rows {
		out[i] = deliveryFromRow(db.ListWebhookDeliveriesRow(r))
	}
	return out, nil
}

// DeliveryDetail is a delivery with the exact body sent and every attempt, oldest first.
type DeliveryDetail struct {
	Delivery
	Body       []byte
	AttemptLog []Attempt
}

// Attempt is one POST as the delivery log records it.
type Attempt struct {
	ID         int64
	DeliveryID int64
	Number     int // 1-based over the delivery's whole life
	StartedAt  time.Time
	Duration   time.Duration
	StatusCode int // 0: no response
	// ErrorCategory is one of the Category* constants, "" on success.
	ErrorCategory string
	ErrorMessage  string
	// RequestHeaders and ResponseHeaders are "Name: value" lines as sent and received;
	// ResponseBody is the start of the receiver's answer (at most MaxResponseBody bytes).
	RequestHeaders  string
	ResponseHeaders string
	ResponseBody    string
}

// attemptRow is an attempt as ListDeliveryAttempts and GetDeliveryAttempt read it.
type attemptRow = db.ListDeliveryAttemptsRow

// attemptFromRow rebuilds an attempt from its row and its shared texts (app/webhook/dispatch/send.go,
// 00332_delivery_log_texts.sql): the request's Standard Webhooks headers from the event id,
// the start and the signature kept on the row, the response's Date from the row.
func attemptFromRow(r attemptRow) Attempt {
	a := Attempt{
		ID: r.ID, DeliveryID: r.DeliveryID, Number: int(r.Attempt), StartedAt: db.Time(r.StartedAt),
		Duration: time.Duration(r.DurationMs) * time.Millisecond, StatusCode: int(r.StatusCode.Int64),
		ErrorCategory: r.ErrorCategory.String, ErrorMessage: r.ErrorMessage,
		RequestHeaders: r.RequestHeaders, ResponseHeaders: r.ResponseHeaders, ResponseBody: r.ResponseBody,
	}
	if r.Signature.Valid {
		a.RequestHeaders = withHeaders(a.RequestHeaders,
			textproto.CanonicalMIMEHeaderKey(HeaderID)+": "+r.EventID,
			textproto.CanonicalMIMEHeaderKey(HeaderSignature)+": "+r.Signature.String,
			textproto.CanonicalMIMEHeaderKey(HeaderTimestamp)+": "+strconv.FormatInt(a.StartedAt.Unix(), 10))
	}
	if r.ResponseDate.Valid {
		a.ResponseHeaders = withHeaders(a.ResponseHeaders, "Date: "+r.ResponseDate.String)
	}
	return a
}

// withHeaders adds "Name: value" lines to a block formatHeader wrote, keeping its name order.
func withHeaders(block string, lines ...string) string {
	all := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if block == "" {
		all = nil
	}
	all = append(all, lines...)
	slices.SortStableFunc(all, func(a, b string) int {
		return strings.Compare(a[:max(strings.Index(a, ":"), 0)], b[:max(strings.Index(b, ":"), 0)])
	})
	return strings.Join(all, "\n") + "\n"
}

// Delivery returns one delivery with its body and attempts.
func (m *Manager) Delivery(ctx context.Context, id int64) (DeliveryDetail, error) {
	r, err := m.db.R.GetDelivery(ctx, id)
	if db.IsNotFound(err) {
		return DeliveryDetail{}, notFound("delivery", id)
	}
	if err != nil {
		return DeliveryDetail{}, err
	}
	d := DeliveryDetail{Body: r.Body, Delivery: deliveryFromGet(r)}
	attempts, err := m.db.R.ListDeliveryAttempts(ctx, id)
	if err != nil {
		return d, err
	}
	d.AttemptLog = make([]Attempt, len(attempts))
	for i, a := range attempts {
		d.AttemptLog[i] = attemptFromRow(a)
	}
	return d, nil
}

// deliveryFromGet is the Delivery of a GetDelivery row.
func deliveryFromGet(r db.GetDeliveryRow) Delivery {
	return deliveryFromRow(db.ListWebhookDeliveriesRow{
		ID: r.ID, EventID: r.EventID, EventType: r.EventType, WebhookID: r.WebhookID, State: r.State,
		Attempts: r.Attempts, SeriesBase: r.SeriesBase, NextAttemptAt: r.NextAttemptAt,
		LastAttemptAt: r.LastAttemptAt, LastStatus: r.LastStatus, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	})
}

// Attempt returns one attempt of the log.
func (m *Manager) Attempt(ctx context.Context, id int64) (Attempt, error) {
	r, err := m.db.R.GetDeliveryAttempt(ctx, id)
	if db.IsNotFound(err) {
		return Attempt{}, notFound("attempt", id)
	}
	return attemptFromRow(attemptRow(r)), err
}
