package mailer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// rules saves the owner's rules for texts.
func (e *env) rules(in messages.TextPolicyInput) {
	e.t.Helper()
	if in.ByText == nil {
		in.ByText = map[messages.Kind]bool{}
		for _, k := range messages.TextKinds() {
			in.ByText[k] = true
		}
	}
	if err := e.s.SaveTextPolicy(context.Background(), in); err != nil {
		e.t.Fatal(err)
	}
}

// noQuietHours switches quiet hours off: a test on the real clock must not depend on the hour
// it runs at.
func (e *env) noQuietHours() {
	e.t.Helper()
	e.rules(messages.TextPolicyInput{DailyCap: "200", QuietStart: 21 * 60, QuietEnd: 8 * 60})
}

// due is a message's next_attempt_at and note.
func (e *env) due(where string, args ...any) (time.Time, string) {
	e.t.Helper()
	var at int64
	var note string
	if err := e.db.Read.QueryRow("SELECT coalesce(next_attempt_at, 0), note FROM messages WHERE "+where, args...).Scan(&at, &note); err != nil {
		e.t.Fatal(err)
	}
	return db.Time(at), note
}

// textedOnlyClients checks that every text the receiver got went to the number of a client
// with a booking.
func (e *env) textedOnlyClients() {
	e.t.Helper()
	for _, x := range e.sms.Texts() {
		var ok bool
		if err := e.db.Read.QueryRow(`SELECT EXISTS (SELECT 1 FROM clients c JOIN bookings b ON b.client_id = c.id WHERE c.phone = ?)`, x.To).Scan(&ok); err != nil || !ok {
			e.t.Errorf("a text went to %s, no client's with a booking (%v)", x.To, err)
		}
	}
}

// Quiet hours (21:00–08:00 in the location's zone, the default) under an injected clock: a
// reminder by text that falls in them goes the minute before they begin; a confirmation asked
// for inside them waits until they end; one for an appointment before they end goes by email
// at once.
func TestQuietHoursHold(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 11, 23, 9, 0, 0, 0, santiago)})
	e.twilio()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	v := e.book("María", time.Date(2026, 11, 25, 8, 30, 0, 0, santiago))
	e.waitTexts(1) // the confirmation, at 09:00

	// The 2-hour reminder is due at 06:30, inside quiet hours: it is planned for 20:59 the
	// evening before; its nominal moment stays what a reschedule and the checks compare.
	if at, want := e.planned(v.Booking.ID, 2*time.Hour).NextAttemptAt, time.Date(2026, 11, 24, 20, 59, 0, 0, santiago); !at.Equal(want) {
		t.Fatalf("2-hour reminder due %v, want %v", at.In(santiago), want)
	}
	e.advance(time.Date(2026, 11, 24, 8, 30, 0, 0, santiago)) // the 24-hour one
	e.waitTexts(2)
	e.advance(time.Date(2026, 11, 24, 20, 58, 0, 0, santiago))
	e.probe(time.Date(2026, 12, 10, 10, 0, 0, 0, santiago))
	if n := len(e.sms.Texts()); n != 2 {
		t.Fatalf("%d texts by 20:58, want 2", n)
	}
	e.advance(time.Date(2026, 11, 24, 20, 59, 0, 0, santiago))
	if got := e.waitTexts(3)[2].Body; !strings.Contains(got, "reminder") || !strings.Contains(got, "08:30") {
		t.Errorf("the reminder before quiet hours: %q", got)
	}

	// At 22:00 a booking for Friday: its confirmation waits until 08:00.
	e.advance(time.Date(2026, 11, 24, 22, 0, 0, 0, santiago))
	w := e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
	e.probe(time.Date(2026, 12, 10, 12, 0, 0, 0, santiago))
	eventually(t, "the confirmation to wait", func() bool {
		_, note := e.due("booking_id = ? AND kind = 'confirmation'", w.Booking.ID)
		return strings.Contains(note, "quiet hours")
	})
	if at, _ := e.due("booking_id = ? AND kind = 'confirmation'", w.Booking.ID); !at.Equal(time.Date(2026, 11, 25, 8, 0, 0, 0, santiago)) {
		t.Errorf("confirmation waits until %v, want 08:00", at.In(santiago))
	}
	e.advance(time.Date(2026, 11, 25, 7, 59, 0, 0, santiago))
	e.probe(time.Date(2026, 12, 10, 14, 0, 0, 0, santiago))
	if n := len(e.sms.Texts()); n != 3 {
		t.Fatalf("%d texts by 07:59, want 3", n)
	}
	e.advance(time.Date(2026, 11, 25, 8, 0, 0, 0, santiago))
	if got := e.waitTexts(4)[3].Body; !strings.Contains(got, "confirmed") || !strings.Contains(got, "10:00") {
		t.Errorf("the confirmation after quiet hours: %q", got)
	}

	// At 22:30 a booking for 07:00 the next morning: a text at 08:00 would come too late, so
	// the confirmation goes by email now, and the log says why.
	e.advance(time.Date(2026, 11, 25, 22, 30, 0, 0, santiago))
	before := len(e.received("Booking confirmed"))
	x := e.book("María", time.Date(2026, 11, 26, 7, 0, 0, 0, santiago))
	mails := e.waitFor("Booking confirmed", before+1)
	if to := mails[len(mails)-1].Header.Get("To"); !strings.Contains(to, "maria@example.com") {
		t.Errorf("confirmation email to %q", to)
	}
	var policy, channel string
	eventually(t, "the attempt recorded", func() bool {
		err := e.db.Read.QueryRow(`SELECT a.policy, a.channel FROM message_attempts a JOIN messages m ON m.id = a.message_id
			WHERE m.booking_id = ? AND m.kind = 'confirmation'`, x.Booking.ID).Scan(&policy, &channel)
		return err == nil
	})
	if policy != messages.PolicyQuietEmail || channel != messages.ChannelEmail {
		t.Errorf("attempt policy %q channel %q, want %q by email", policy, channel, messages.PolicyQuietEmail)
	}
	if n := len(e.sms.Texts()); n != 4 {
		t.Errorf("%d texts, want 4", n)
	}
	e.textedOnlyClients()
}

// Quiet hours are the location's wall clock: on the night Chile moves its clocks forward
// (6 September 2026, 00:00 → 01:00) a text asked for at 22:00 waits until 08:00 UTC−3, which
// is 11:00 UTC — not 12:00, as eleven hours after 21:00 UTC−4 would be.
func TestQuietHoursAcrossDST(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 9, 5, 22, 0, 0, 0, santiago)})
	e.twilio()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	v := e.book("María", time.Date(2026, 9, 10, 10, 0, 0, 0, santiago))
	eventually(t, "the confirmation to wait", func() bool {
		_, note := e.due("booking_id = ? AND kind = 'confirmation'", v.Booking.ID)
		return strings.Contains(note, "quiet hours")
	})
	at, _ := e.due("booking_id = ? AND kind = 'confirmation'", v.Booking.ID)
	if want := time.Date(2026, 9, 6, 11, 0, 0, 0, time.UTC); !at.Equal(want) {
		t.Fatalf("waits until %v, want %v", at.UTC(), want)
	}
	e.advance(time.Date(2026, 9, 6, 10, 59, 0, 0, time.UTC))
	e.probe(time.Date(2026, 9, 20, 10, 0, 0, 0, santiago))
	if n := len(e.sms.Texts()); n != 0 {
		t.Fatalf("%d texts at 07:59 local, want none", n)
	}
	e.advance(time.Date(2026, 9, 6, 11, 0, 0, 0, time.UTC))
	e.waitTexts(1)
}

// The daily cap under an injected clock: with a cap of 2, the third text of the day goes by
// email (the attempt says why); for a client without email it waits for the next day — and
// then for the end of quiet hours. Each text's parts and estimated cost are in its row.
func TestDailyCapHolds(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 11, 23, 9, 0, 0, 0, santiago)})
	e.twilio()
	e.rules(messages.TextPolicyInput{DailyCap: "2", QuietEnabled: true, QuietStart: 21 * 60, QuietEnd: 8 * 60, PricePer1000: "40000"})
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	e.book("María", time.Date(2026, 12, 1, 10, 0, 0, 0, santiago))
	e.book("María", time.Date(2026, 12, 1, 12, 0, 0, 0, santiago))
	e.waitTexts(2)
	third := e.book("María", time.Date(2026, 12, 1, 14, 0, 0, 0, santiago))
	e.waitFor("Booking confirmed", 1)
	var policy string
	eventually(t, "the third attempt recorded", func() bool {
		return e.db.Read.QueryRow(`SELECT a.policy FROM message_attempts a JOIN messages m ON m.id = a.message_id
			WHERE m.booking_id = ? AND m.kind = 'confirmation'`, third.Booking.ID).Scan(&policy) == nil
	})
	if policy != messages.PolicyCapEmail {
		t.Errorf("third confirmation's policy %q, want %q", policy, messages.PolicyCapEmail)
	}
	if n := len(e.sms.Texts()); n != 2 {
		t.Errorf("%d texts, want the cap's 2", n)
	}
	var seg, cost int64
	if err := e.db.Read.QueryRow(`SELECT segments, cost_milli FROM messages WHERE channel = 'sms' AND state = 'sent' LIMIT 1`).Scan(&seg, &cost); err != nil ||
		seg != int64(messages.Segment(e.sms.Texts()[0].Body).Segments) || cost != seg*4000000 {
		t.Errorf("segments %d cost %d (%v), want the text's parts at 40 pesos each", seg, cost, err)
	}

	// Nadia has no email: over the cap her text waits for the next day, 00:00 — inside quiet
	// hours, so then until 08:00.
	e.prefer("Nadia", "+56961234568", messages.ChannelSMS)
	n := e.book("Nadia", time.Date(2026, 12, 1, 16, 0, 0, 0, santiago))
	eventually(t, "Nadia's text to wait", func() bool {
		_, note := e.due("booking_id = ? AND kind = 'confirmation'", n.Booking.ID)
		return strings.Contains(note, "daily cap")
	})
	if at, _ := e.due("booking_id = ? AND kind = 'confirmation'", n.Booking.ID); !at.Equal(time.Date(2026, 11, 24, 0, 0, 0, 0, santiago)) {
		t.Fatalf("waits until %v, want the next day", at.In(santiago))
	}
	e.advance(time.Date(2026, 11, 24, 0, 0, 0, 0, santiago))
	eventually(t, "Nadia's text to wait for quiet hours' end", func() bool {
		_, note := e.due("booking_id = ? AND kind = 'confirmation'", n.Booking.ID)
		return strings.Contains(note, "quiet hours")
	})
	e.advance(time.Date(2026, 11, 24, 8, 0, 0, 0, santiago))
	if got := e.waitTexts(3)[2]; got.To != "+56961234568" {
		t.Errorf("third text to %s, want Nadia", got.To)
	}
	e.textedOnlyClients()
}

// The number rule texts and test texts answer to: a client's number counts only once the client
// has a booking; a number of no one never does, nor does a test text go to it.
func TestTextsOnlyToClientsWithABooking(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.twilio()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	e.prefer("Nadia", "+56961234568", messages.ChannelSMS)
	ctx := context.Background()
	textable := func(n string) bool {
		var ok bool
		if err := e.db.ReadTx(ctx, func(q *db.Queries) error {
			var err error
			ok, err = messages.TextableNumber(ctx, q, n)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if textable("+56961234567") || textable("+56961234568") || textable("+56961234599") || textable("") {
		t.Fatal("a number is textable before its client has a booking")
	}
	if _, err := e.s.SendTestText(ctx, "+56961234568"); !errors.Is(err, messages.ErrNumberNotAllowed) {
		t.Errorf("test text to a client without a booking: %v, want refused", err)
	}
	if _, err := e.s.SendTestText(ctx, "+56961234599"); !errors.Is(err, messages.ErrNumberNotAllowed) {
		t.Errorf("test text to a number of no one: %v, want refused", err)
	}
	e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
	e.waitTexts(1)
	if !textable("+56961234567") || textable("+56961234568") {
		t.Error("María (booked) textable, Nadia (not booked) not: want exactly that")
	}
	if _, err := e.s.SendTestText(ctx, "+56961234567"); err != nil {
		t.Errorf("test text to a booked client: %v", err)
	}
	if got := e.sms.Texts(); len(got) != 2 {
		t.Errorf("%d texts, want the confirmation and one test text", len(got))
	}
	e.textedOnlyClients()
}
