package webhook

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"frontdesk/db"
)

// logRefused says once per webhook (and URL) that its target was refused by the SSRF guard:
// the delivery log has every attempt, but an operator reading the server log should learn why
// a webhook never arrives without a line per retry.
func (d *Dispatcher) logRefused(j job, reason string) {
	key := strconv.FormatInt(j.webhookID, 10) + " " + j.url
	if _, seen := d.refusedLogged.LoadOrStore(key, true); seen {
		return
	}
	d.log.LogAttrs(context.Background(), slog.LevelWarn,
		"webhook target refused: it is a loopback, private, link-local or metadata address; "+
			"serve with --webhook-allow-private to allow such targets",
		slog.Int64("webhook_id", j.webhookID), slog.String("url", j.url), slog.String("reason", reason))
}

// LastError is why a webhook's latest attempt failed, for `webhook list`.
type LastError struct {
	Category string // dns, connect, tls, timeout, forbidden_address, http_status, other
	Message  string
	Status   int // the HTTP status for http_status, 0 otherwise
	At       time.Time
}

// LastError returns the failure of the webhook's latest attempt; ok is false when that
// attempt succeeded or there was none.
func (m *Manager) LastError(ctx context.Context, webhookID int64) (e LastError, ok bool, err error) {
	a, err := m.db.R.LastWebhookAttempt(ctx, webhookID)
	if db.IsNotFound(err) {
		return e, false, nil
	}
	if err != nil || !a.ErrorCategory.Valid {
		return e, false, err
	}
	return LastError{Category: a.ErrorCategory.String, Message: a.ErrorMessage, Status: int(a.StatusCode.Int64), At: db.Time(a.StartedAt)}, true, nil
}
