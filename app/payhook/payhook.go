// Package payhook receives payment providers' notifications: POST /{provider}/webhook
// (POST /stripe/webhook for Stripe; docs/payments.md). It is its own small surface, without
// sessions, CSRF checks or API keys: a notification is authenticated by its signature alone,
// which app/payments verifies with the provider's library before anything is read or written.
package payhook

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/textproto"

	"frontdesk/app/payments"
)

// maxBody bounds a notification; Stripe's events are a few kilobytes.
const maxBody = 1 << 20

// Handler serves provider name's notifications. Answers, which the provider shows in its
// dashboard's delivery log:
//
//   - 200 {"received": true, "outcome": …}: applied, or already known, or not about anything
//     frontdesk made (the provider must not retry);
//   - 400: the signature does not verify, or the body cannot be read: not an event, or a key
//     twice in one object (nothing changed);
//   - 413: the body is over 1 MiB;
//   - 503: the provider's secrets are not set in Settings → Payments (the provider retries);
//   - 500: anything else (logged; the provider retries, which is harmless).
func Handler(o *payments.Online, name string, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			reply(w, http.StatusRequestEntityTooLarge, map[string]any{"error": "payload_too_large"})
			return
		} else if err != nil {
			reply(w, http.StatusBadRequest, map[string]any{"error": "unreadable_body"})
			return
		}
		outcome, err := o.HandleEvent(r.Context(), name, body, textproto.MIMEHeader(r.Header))
		switch {
		case errors.Is(err, payments.ErrBadSignature):
			log.WarnContext(r.Context(), "payment notification with a bad signature refused", "provider", name, "err", err)
			reply(w, http.StatusBadRequest, map[string]any{"error": "invalid_signature"})
		case errors.Is(err, payments.ErrUnreadableEvent):
			reply(w, http.StatusBadRequest, map[string]any{"error": "unreadable_event"})
		case errors.Is(err, payments.ErrNotConfigured):
			log.WarnContext(r.Context(), "payment notification while the provider's secrets are not set", "provider", name)
			reply(w, http.StatusServiceUnavailable, map[string]any{"error": "not_configured"})
		case err != nil:
			log.ErrorContext(r.Context(), "payment notification", "provider", name, "err", err)
			reply(w, http.StatusInternalServerError, map[string]any{"error": "internal_server_error"})
		default:
			reply(w, http.StatusOK, map[string]any{"received": true, "outcome": outcome})
		}
	})
}

func reply(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}
