package dispatch

import (
	"context"
	"log/slog"
	"strconv"
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
