package mailer_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/watest"
	"frontdesk/app/payments"
)

// whatsApp switches WhatsApp on, its Cloud API at the test's receiver, with a template for the
// confirmation, the move, the reminder and the payment request in English: the client's first name, the service,
// the date and the local time.
func (e *env) whatsApp() {
	e.t.Helper()
	ctx := context.Background()
	token, secret := watest.AccessToken, watest.AppSecret
	if err := e.s.SaveWhatsAppSettings(ctx, messages.WhatsAppSettingsInput{Enabled: true, PhoneNumberID: watest.PhoneNumberID,
		VerifyToken: watest.VerifyToken, AccessToken: &token, AppSecret: &secret}); err != nil {
		e.t.Fatal(err)
	}
	for _, k := range []messages.Kind{messages.Confirmation, messages.Rescheduled, messages.Reminder, messages.PaymentRequest} {
		if err := e.s.SaveWhatsAppTemplate(ctx, messages.WhatsAppTemplate{Kind: k, Language: "en", Name: "booking_" + string(k),
			Lang: "en_US", Params: []string{"ClientFirstName", "Service", "Date", "Time"}, Buttons: k != messages.Rescheduled}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// waitWhatsApp waits for n messages at the Cloud API receiver.
func (e *env) waitWhatsApp(n int) []watest.Message {
	e.t.Helper()
	eventually(e.t, "WhatsApp messages", func() bool { return len(e.wa.Messages()) >= n })
	return e.wa.Messages()
}

// The Cloud API down (5xx, then throttling): the WhatsApp message is retried on the schedule
// and delivered when it is back, every request one Meta's description accepts. A number Meta
// refuses (HTTP 400, error 131026: not on WhatsApp) fails at once with no retry, the log says
// why; resend tries again.
func TestWhatsAppRetriedAndRefused(t *testing.T) {
	e := newEnv(t, envOptions{realClock: true, schedule: fast})
	e.whatsApp()
	e.noQuietHours()
	e.prefer("María", "+56961234567", messages.ChannelWhatsApp)
	e.wa.FailNext(http.StatusServiceUnavailable, http.StatusTooManyRequests)
	v := e.book("María", time.Now().Add(72*time.Hour).Truncate(time.Minute))
	e.waitWhatsApp(1)
	eventually(t, "sent", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	d, err := e.s.Message(context.Background(), e.confirmation(v.Booking.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Attempts) != 3 || d.Attempts[0].Code != 503 || d.Attempts[0].Category != messages.CategoryTemporary ||
		d.Attempts[1].Code != 429 || d.Attempts[2].Code != 200 || d.Attempts[2].Header != watest.WAMID(1) ||
		d.Attempts[2].Channel != messages.ChannelWhatsApp {
		t.Errorf("attempts %+v: want a 503, a 429, then Meta's 200 and its wamid", d.Attempts)
	}
	if n := len(e.received("Booking confirmed")); n != 0 {
		t.Errorf("%d confirmation emails as well, want none", n)
	}

	// A number that is not on WhatsApp: refused for good at the first attempt.
	e.wa.Refuse("+56961234568", 131026)
	e.prefer("Nadia", "+56961234568", messages.ChannelWhatsApp)
	w := e.book("Nadia", time.Now().Add(96*time.Hour).Truncate(time.Minute))
	eventually(t, "failed", func() bool { return e.confirmation(w.Booking.ID).State == messages.StateFailed })
	x := e.confirmation(w.Booking.ID)
	if x.Attempts != 1 || !strings.Contains(x.Note, "error 131026") || x.Channel != messages.ChannelWhatsApp {
		t.Errorf("refused message %+v: want one WhatsApp attempt, failed with Meta's 131026", x)
	}
	d, err = e.s.Message(context.Background(), x.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Attempts[0]; a.Code != http.StatusBadRequest || a.Category != messages.CategoryAddress {
		t.Errorf("refused attempt %+v, want 400 in the category address", a)
	}
	before := e.wa.Attempts()
	if err := e.s.Resend(context.Background(), x.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the resend's attempt", func() bool { return e.wa.Attempts() > before })
	eventually(t, "the resend recorded", func() bool { return e.confirmation(w.Booking.ID).Attempts == 2 })
}

// WhatsApp obeys the owner's rules for texts exactly as SMS does, under an injected clock:
// a reminder whose moment falls in quiet hours is planned for the minute before they begin; a
// confirmation asked for inside them waits until they end; the daily cap counts SMS and
// WhatsApp together (over it a WhatsApp message goes by email); and a client without a booking
// gets no WhatsApp message (their payment request goes by email).
func TestWhatsAppUnderTheRulesForTexts(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 11, 23, 9, 0, 0, 0, santiago)})
	e.whatsApp()
	e.twilio()
	e.prefer("María", "+56961234567", messages.ChannelWhatsApp)

	// John, who prefers WhatsApp, has no booking: his payment request goes by email, the
	// attempt naming the rule, and nothing reaches his number.
	ctx := context.Background()
	if _, err := e.db.Write.Exec("UPDATE company SET online_payments = 1"); err != nil {
		t.Fatal(err)
	}
	e.prefer("John", "+56961234569", messages.ChannelWhatsApp)
	john, location := e.clientID("John"), int64(1)
	cart, err := payments.CreateCart(ctx, e.db, e.now(), payments.CartInput{ClientID: &john, LocationID: &location,
		Items: []payments.ItemInput{{ItemID: 7, ItemType: "addon", UnitPrice: "15000", Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := payments.CreatePaymentRequest(ctx, e.db, e.now(), cart.Cart.ID, "https://book.example.com")
	if err != nil {
		t.Fatal(err)
	}
	e.waitFor("Payment for your booking", 1)
	var policy, channel string
	eventually(t, "the payment request's attempt recorded", func() bool {
		return e.db.Read.QueryRow(`SELECT a.policy, a.channel FROM message_attempts a JOIN messages m ON m.id = a.message_id
			WHERE m.payment_request_id = ?`, pr.ID).Scan(&policy, &channel) == nil
	})
	if policy != messages.PolicyNotClient || channel != messages.ChannelEmail {
		t.Errorf("payment request to a client without a booking: policy %q channel %q, want %q by email", policy, channel, messages.PolicyNotClient)
	}
	if n := len(e.wa.Messages()); n != 0 {
		t.Fatalf("%d WhatsApp messages to a client without a booking, want none", n)
	}
	e.prefer("John", "", messages.ChannelEmail) // e.probe books him and waits for his email

	v := e.book("María", time.Date(2026, 11, 25, 8, 30, 0, 0, santiago))
	if got := e.waitWhatsApp(1)[0]; got.Template != "booking_confirmation" || got.Params[3] != "08:30" {
		t.Errorf("confirmation %+v, want the template with the local time 08:30", got)
	}

	// Quiet hours: the 2-hour reminder (06:30) is planned for 20:59 the evening before.
	if at, want := e.planned(v.Booking.ID, 2*time.Hour).NextAttemptAt, time.Date(2026, 11, 24, 20, 59, 0, 0, santiago); !at.Equal(want) {
		t.Errorf("2-hour WhatsApp reminder due %v, want %v", at.In(santiago), want)
	}
	// At 22:00 a booking: its confirmation waits until 08:00.
	e.advance(time.Date(2026, 11, 23, 22, 0, 0, 0, santiago))
	w := e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
	e.probe(time.Date(2026, 12, 10, 12, 0, 0, 0, santiago))
	eventually(t, "the confirmation to wait", func() bool {
		_, note := e.due("booking_id = ? AND kind = 'confirmation'", w.Booking.ID)
		return strings.Contains(note, "quiet hours")
	})
	if at, _ := e.due("booking_id = ? AND kind = 'confirmation'", w.Booking.ID); !at.Equal(time.Date(2026, 11, 24, 8, 0, 0, 0, santiago)) {
		t.Errorf("confirmation waits until %v, want 08:00", at.In(santiago))
	}
	if n := len(e.wa.Messages()); n != 1 {
		t.Fatalf("%d WhatsApp messages at 22:00, want 1", n)
	}
	e.advance(time.Date(2026, 11, 24, 8, 0, 0, 0, santiago))
	if got := e.waitWhatsApp(2)[1]; got.Params[3] != "10:00" {
		t.Errorf("the confirmation after quiet hours: %+v", got)
	}

	// The daily cap of 3, shared: 24 November has had one WhatsApp message; an SMS and a
	// WhatsApp message take the other two places, and the next WhatsApp one goes by email.
	e.rules(messages.TextPolicyInput{DailyCap: "3", QuietEnabled: true, QuietStart: 21 * 60, QuietEnd: 8 * 60})
	e.advance(time.Date(2026, 11, 24, 9, 0, 0, 0, santiago))
	e.prefer("John", "+56961234569", messages.ChannelSMS)
	e.book("John", time.Date(2026, 12, 2, 10, 0, 0, 0, santiago))
	e.waitTexts(1)
	e.book("María", time.Date(2026, 12, 2, 12, 0, 0, 0, santiago))
	e.waitWhatsApp(3)
	over := e.book("María", time.Date(2026, 12, 2, 14, 0, 0, 0, santiago))
	eventually(t, "the attempt over the cap recorded", func() bool {
		return e.db.Read.QueryRow(`SELECT a.policy, a.channel FROM message_attempts a JOIN messages m ON m.id = a.message_id
			WHERE m.booking_id = ? AND m.kind = 'confirmation'`, over.Booking.ID).Scan(&policy, &channel) == nil
	})
	if policy != messages.PolicyCapEmail || channel != messages.ChannelEmail {
		t.Errorf("over the cap: policy %q channel %q, want %q by email", policy, channel, messages.PolicyCapEmail)
	}
	if n := len(e.wa.Messages()); n != 3 {
		t.Errorf("%d WhatsApp messages, want 3", n)
	}
	// What the cap is seeded from after a restart, and what Settings shows as today's texts,
	// counts both channels.
	if st, err := e.s.TextStats(ctx, 1); err != nil || st.Today != 3 {
		t.Errorf("today's texts %d (%v), want 3: two WhatsApp messages and one SMS", st.Today, err)
	}

	for _, x := range e.wa.Messages() {
		var ok bool
		if err := e.db.Read.QueryRow(`SELECT EXISTS (SELECT 1 FROM clients c JOIN bookings b ON b.client_id = c.id WHERE c.phone = ?)`,
			"+"+x.To).Scan(&ok); err != nil || !ok {
			t.Errorf("a WhatsApp message went to %s, no client's with a booking (%v)", x.To, err)
		}
	}
}
