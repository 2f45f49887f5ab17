package mailer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/app/payments"
)

var santiago, _ = time.LoadLocation("America/Santiago")

// A booking's confirmation names the local time with its zone, carries an .ics that an
// independent parser reads as the booked instant, and has a stable Message-ID.
func TestConfirmationCarriesLocalTimeAndCalendar(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := time.Date(2026, 11, 30, 15, 30, 0, 0, santiago)
	v := e.book("María", start)

	got := e.waitFor("Booking confirmed", 1)[0]
	if want := "Booking confirmed: Haircut on Monday, 30 November 2026 at 15:30"; got.Subject != want {
		t.Errorf("subject %q, want %q", got.Subject, want)
	}
	for _, want := range []string{"Hello María", "15:30 (America/Santiago, UTC−3)", "Huérfanos 1160, Santiago", "$25,000"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, got.Text)
		}
	}
	if !strings.Contains(got.HTML, "15:30 (America/Santiago, UTC−3)") {
		t.Errorf("HTML part lacks the local time:\n%s", got.HTML)
	}
	at, ev := calendarStart(t, got.Attachments["booking.ics"])
	if !at.Equal(start) {
		t.Errorf(".ics starts %v, want the booked instant %v", at, start)
	}
	if uid := ev.GetProperty("UID"); uid == nil || !strings.HasPrefix(uid.Value, "booking-") {
		t.Errorf(".ics UID %+v, want booking-…", uid)
	}
	if to := got.Header.Get("To"); !strings.Contains(to, "maria@example.com") {
		t.Errorf("To %q", to)
	}
	entries := e.entries(v.Booking.ID)
	var conf messages.Entry
	for _, x := range entries {
		if x.Kind == messages.Confirmation {
			conf = x
		}
	}
	eventually(t, "the confirmation recorded as sent", func() bool {
		for _, x := range e.entries(v.Booking.ID) {
			if x.Kind == messages.Confirmation && x.State == messages.StateSent {
				return true
			}
		}
		return false
	})
	if want := "<" + conf.MessageID + "@studio-ana.example>"; got.Header.Get("Message-Id") != want {
		t.Errorf("Message-ID %q, want %q (fixed when the row was written)", got.Header.Get("Message-Id"), want)
	}
	// The booking's page lists the confirmation and both planned reminders.
	var reminders int
	for _, x := range e.entries(v.Booking.ID) {
		if x.Kind == messages.Reminder && x.State == messages.StatePending {
			reminders++
		}
	}
	if reminders != 2 {
		t.Errorf("%d planned reminders, want 2 (24 h and 2 h): %+v", reminders, e.entries(v.Booking.ID))
	}
}

// The 24-hour reminder goes exactly once, at its time; a reschedule moves it; a cancel means
// it is never sent.
func TestRemindersFollowTheBooking(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, santiago)
	v := e.book("María", start)
	e.waitFor("Booking confirmed", 1)
	at24 := start.Add(-24 * time.Hour)

	// A minute early: not yet.
	e.advance(at24.Add(-time.Minute))
	e.probe(time.Date(2026, 12, 10, 9, 0, 0, 0, santiago))
	if n := len(e.received("Reminder")); n != 0 {
		t.Fatalf("%d reminders a minute before their time, want 0", n)
	}
	// At its time: once.
	e.advance(at24)
	got := e.waitFor("Reminder", 1)[0]
	if want := "Reminder: Haircut on Friday, 27 November 2026 at 10:00"; got.Subject != want {
		t.Errorf("subject %q, want %q", got.Subject, want)
	}
	if !strings.Contains(got.Text, "in 24 hours") || !strings.Contains(got.Text, "https://book.example.com/messages/unsubscribe/") {
		t.Errorf("reminder text:\n%s", got.Text)
	}
	if lu := got.Header.Get("List-Unsubscribe"); !strings.HasPrefix(lu, "<https://book.example.com/messages/unsubscribe/") ||
		got.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe %q / %q", lu, got.Header.Get("List-Unsubscribe-Post"))
	}
	e.advance(at24.Add(time.Hour))
	e.probe(time.Date(2026, 12, 11, 9, 0, 0, 0, santiago))
	if n := len(e.received("Reminder")); n != 1 {
		t.Errorf("%d reminders after its time passed, want exactly 1", n)
	}

	// A reschedule to the next week: a notice, and the 2 h reminder moves with the booking.
	moved := time.Date(2026, 12, 4, 18, 0, 0, 0, santiago)
	if _, err := booking.Update(context.Background(), e.db, e.now(), v.Booking.ID, booking.Change{Start: &moved}, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	notice := e.waitFor("Booking moved", 1)[0]
	if !strings.Contains(notice.Text, "Now: Friday, 4 December 2026, 18:00") || !strings.Contains(notice.Text, "Before: Friday, 27 November 2026, 10:00") {
		t.Errorf("reschedule notice:\n%s", notice.Text)
	}
	if at, ev := calendarStart(t, notice.Attachments["booking.ics"]); !at.Equal(moved) || ev.GetProperty("SEQUENCE").Value != "1" {
		t.Errorf("notice .ics starts %v seq %v, want %v seq 1", at, ev.GetProperty("SEQUENCE").Value, moved)
	}
	// The old 2 h moment passes: nothing. The new 24 h moment: the reminder names the new time.
	e.advance(start.Add(-2 * time.Hour))
	e.probe(time.Date(2026, 12, 12, 9, 0, 0, 0, santiago))
	if n := len(e.received("Reminder")); n != 1 {
		t.Errorf("%d reminders at the old time, want still 1", n)
	}
	e.advance(moved.Add(-24 * time.Hour))
	again := e.waitFor("Reminder", 2)[1]
	if !strings.Contains(again.Subject, "Friday, 4 December 2026 at 18:00") {
		t.Errorf("moved reminder subject %q", again.Subject)
	}

	// A cancel: a notice with a cancelled calendar entry, and the 2 h reminder never goes.
	if err := booking.Cancel(context.Background(), e.db, e.now(), v.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	cancelled := e.waitFor("Booking cancelled", 1)[0]
	if _, ev := calendarStart(t, cancelled.Attachments["booking.ics"]); ev.GetProperty("STATUS").Value != "CANCELLED" {
		t.Errorf("cancel .ics status %v", ev.GetProperty("STATUS"))
	}
	e.advance(moved.Add(-2 * time.Hour))
	e.probe(time.Date(2026, 12, 14, 9, 0, 0, 0, santiago))
	if n := len(e.received("Reminder")); n != 2 {
		t.Errorf("%d reminders after the cancel, want still 2", n)
	}
	for _, x := range e.entries(v.Booking.ID) {
		if x.State == messages.StatePending {
			t.Errorf("after the cancel a message is still planned: %+v", x)
		}
	}
}

// A reminder across a change of UTC offset names the booking's own local time and offset, and
// goes at exactly 24 real hours before.
func TestReminderAcrossDST(t *testing.T) {
	// Chile leaves summer time on Sunday 5 April 2026 at 00:00 (UTC−3 → UTC−4).
	e := newEnv(t, envOptions{start: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)})
	start := time.Date(2026, 4, 5, 10, 0, 0, 0, santiago)
	if _, before := start.Add(-24 * time.Hour).Zone(); before == func() int { _, o := start.Zone(); return o }() {
		t.Fatalf("test premise: %v and 24 h before have the same offset", start)
	}
	e.book("María", start)
	e.waitFor("Booking confirmed", 1)
	e.advance(start.Add(-24*time.Hour - time.Second))
	e.probe(time.Date(2026, 4, 20, 9, 0, 0, 0, santiago))
	if n := len(e.received("Reminder")); n != 0 {
		t.Fatalf("reminder a second early")
	}
	e.advance(start.Add(-24 * time.Hour))
	got := e.waitFor("Reminder", 1)[0]
	if !strings.Contains(got.Subject, "Sunday, 5 April 2026 at 10:00") || !strings.Contains(got.Text, "10:00 (America/Santiago, UTC−4)") {
		t.Errorf("reminder across DST:\nsubject %q\n%s", got.Subject, got.Text)
	}
}

// A reminder whose moment has passed when the booking is made is recorded as skipped, not
// sent at once.
func TestLateReminderSkipped(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := e.now().Add(5 * time.Hour) // inside 24 h, outside 2 h
	v := e.book("María", start)
	e.waitFor("Booking confirmed", 1)
	e.probe(start.Add(72 * time.Hour))
	if n := len(e.received("Reminder")); n != 0 {
		t.Errorf("%d reminders sent at booking time, want 0", n)
	}
	var skipped, planned int
	for _, x := range e.entries(v.Booking.ID) {
		switch {
		case x.Kind == messages.Reminder && x.State == messages.StateSkipped && x.Offset == 24*time.Hour:
			skipped++
		case x.Kind == messages.Reminder && x.State == messages.StatePending && x.Offset == 2*time.Hour:
			planned++
		}
	}
	if skipped != 1 || planned != 1 {
		t.Errorf("reminders %+v: want the 24 h one skipped and the 2 h one planned", e.entries(v.Booking.ID))
	}
}

// A message still waiting when the appointment starts (the mail server was down until then)
// is recorded as not sent rather than sent late.
func TestNothingSentOnceStarted(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.smtp.Down()
	start := e.now().Add(90 * time.Minute).Truncate(time.Minute)
	v := e.book("María", start)
	eventually(t, "a failed first attempt", func() bool {
		for _, x := range e.entries(v.Booking.ID) {
			if x.Kind == messages.Confirmation && x.Attempts == 1 && !x.InFlight {
				return true
			}
		}
		return false
	})
	e.smtp.Up()
	e.advance(start.Add(time.Minute))
	eventually(t, "the confirmation skipped", func() bool {
		for _, x := range e.entries(v.Booking.ID) {
			if x.Kind == messages.Confirmation {
				return x.State == messages.StateSkipped && strings.Contains(x.Note, "already started")
			}
		}
		return false
	})
	e.probe(start.Add(48 * time.Hour))
	for _, m := range e.received("Booking confirmed") {
		if strings.Contains(m.Text, "Hello María") {
			t.Errorf("María's confirmation went out after her appointment started")
		}
	}
}

// A payment request sends its checkout link; settling it sends the receipt.
func TestPaymentRequestAndReceipt(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	if _, err := e.db.Write.Exec("UPDATE company SET online_payments = 1"); err != nil {
		t.Fatal(err)
	}
	client, location := e.clientID("María"), int64(1)
	cart, err := payments.CreateCart(ctx, e.db, e.now(), payments.CartInput{ClientID: &client, LocationID: &location,
		Items: []payments.ItemInput{{ItemID: 7, ItemType: "addon", UnitPrice: "15000", Quantity: 1}}}) // a plain priced line (products are catalogued)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := payments.CreatePaymentRequest(ctx, e.db, e.now(), cart.Cart.ID, "https://book.example.com")
	if err != nil {
		t.Fatal(err)
	}
	got := e.waitFor("Payment for your booking", 1)[0]
	if !strings.Contains(got.Subject, "$15,000") || !strings.Contains(got.Text, pr.CheckoutURL) {
		t.Errorf("payment request email:\nsubject %q\n%s\nwant the amount and %s", got.Subject, got.Text, pr.CheckoutURL)
	}
	if _, err := payments.Settle(ctx, e.db, pr.ID, payments.MethodCash, e.now()); err != nil {
		t.Fatal(err)
	}
	receipt := e.waitFor("Payment received", 1)[0]
	if !strings.Contains(receipt.Text, "$15,000") || !strings.Contains(receipt.Text, "Monday, 23 November 2026, 9:00 (America/Santiago, UTC−3)") &&
		!strings.Contains(receipt.Text, "Monday, 23 November 2026, 09:00 (America/Santiago, UTC−3)") {
		t.Errorf("receipt:\n%s", receipt.Text)
	}
}

// The owner's switches: a type switched off is not planned, a copy goes to the owner's address.
func TestOwnerCopyAndSwitches(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	in := messages.OptionsInput{OwnerAddress: "owner@studio-ana.example", Offsets: []time.Duration{24 * time.Hour}}
	for _, k := range messages.Kinds {
		in.Kinds = append(in.Kinds, messages.KindSetting{Kind: k, Enabled: k != messages.Reminder, OwnerCopy: k == messages.Confirmation})
	}
	if err := e.s.SaveOptions(ctx, in); err != nil {
		t.Fatal(err)
	}
	v := e.book("María", time.Date(2026, 12, 1, 10, 0, 0, 0, santiago))
	eventually(t, "both confirmations", func() bool { return len(e.smtp.Messages()) == 2 })
	to := map[string]bool{}
	for _, m := range e.smtp.Messages() {
		to[m.To[0]] = true
	}
	if !to["maria@example.com"] || !to["owner@studio-ana.example"] {
		t.Errorf("confirmations went to %v, want the client and the owner", to)
	}
	for _, x := range e.entries(v.Booking.ID) {
		if x.Kind == messages.Reminder {
			t.Errorf("a reminder was planned although reminders are off: %+v", x)
		}
	}
	var fe messages.FieldErrors
	bad := in
	bad.Offsets = []time.Duration{40 * 24 * time.Hour}
	if err := e.s.SaveOptions(ctx, bad); !errors.As(err, &fe) {
		t.Errorf("a 40-day reminder: %v, want refused", err)
	}
}

// Every customer flow books through app/booking, so a booking from the booking site (source
// "online") or the MCP server gets the same confirmation as one from the API or the admin.
func TestEveryChannelGetsItsConfirmation(t *testing.T) {
	e := newEnv(t, envOptions{})
	for i, source := range []string{booking.SourceOnline, booking.SourceMCP, booking.SourceConnect} {
		start := time.Date(2026, 12, 7+i, 16, 0, 0, 0, santiago)
		if _, err := booking.Create(context.Background(), e.db, e.now(), booking.NewBooking{
			LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: e.clientID("María"), StatusID: booking.StatusConfirmed,
			Start: start, Source: source,
		}); err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		got := e.waitFor("Booking confirmed", i+1)
		if at, _ := calendarStart(t, got[i].Attachments["booking.ics"]); !at.Equal(start) {
			t.Errorf("%s: .ics starts %v, want %v", source, at, start)
		}
	}
}

// A time the clock shows twice (Santiago's fall-back night, 23:00–24:00 on Saturday 4 April
// 2026) is named with its offset in the subject too, which has only {{.Date}} and {{.Time}}:
// "at 23:30" alone could be either.
func TestRepeatedTimeNamedInSubject(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)})
	e.book("María", time.Date(2026, 4, 5, 3, 30, 0, 0, time.UTC)) // the second 23:30, UTC−4
	got := e.waitFor("Booking confirmed", 1)[0]
	if !strings.Contains(got.Subject, "Saturday, 4 April 2026 at 23:30 (UTC−4)") {
		t.Errorf("subject %q does not say which 23:30", got.Subject)
	}
	if !strings.Contains(got.Text, "23:30 (America/Santiago, UTC−4)") || strings.Contains(got.Text, "(UTC−4) (") {
		t.Errorf("body:\n%s", got.Text)
	}
}
