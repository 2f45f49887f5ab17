package mailer_test

import (
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
)

// policy sets the business's cancellation policy: a day's notice, half the price capped at
// 10 000 for a late cancel, 15 000 for a no-show.
func (e *env) policy() {
	e.t.Helper()
	if _, err := e.db.Write.Exec(`INSERT INTO card_policy (id, notice_min, late_fee_kind, late_fee_value, late_fee_cap_cents,
		no_show_fee_kind, no_show_fee_value, updated_at) VALUES (1, 1440, 'percent', 5000, 1000000, 'amount', 1500000, 0)`); err != nil {
		e.t.Fatal(err)
	}
}

// The confirmation states the cancellation policy the booking site stated before the client
// booked — by email and by text, the fees for this booking's price (25 000) in the business's
// currency.
func TestConfirmationStatesCancellationPolicy(t *testing.T) {
	want := []string{"Cancelling less than 24 hours before the appointment costs $10,000.", "Not coming without cancelling costs $15,000."}
	t.Run("email", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.policy()
		e.book("María", time.Date(2026, 11, 30, 15, 30, 0, 0, santiago))
		got := e.waitFor("Booking confirmed", 1)[0]
		for _, w := range want {
			if !strings.Contains(got.Text, w) || !strings.Contains(got.HTML, w) {
				t.Errorf("confirmation lacks %q:\n%s", w, got.Text)
			}
		}
	})
	t.Run("text", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.policy()
		e.twilio()
		e.prefer("María", "+56961234567", messages.ChannelSMS)
		e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
		got := e.waitTexts(1)[0]
		for _, w := range want {
			if !strings.Contains(got.Body, w) {
				t.Errorf("text lacks %q: %s", w, got.Body)
			}
		}
	})
	t.Run("no fees, nothing said", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.book("María", time.Date(2026, 11, 30, 15, 30, 0, 0, santiago))
		if got := e.waitFor("Booking confirmed", 1)[0]; strings.Contains(got.Text, "cancelling") {
			t.Errorf("a confirmation without fees speaks of them:\n%s", got.Text)
		}
	})
}
