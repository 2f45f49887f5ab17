package mailer_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
)

// setProvider saves the fixture's provider (Ana) through the catalog, as the admin's form does,
// with an email address, booking emails on or off and an agenda time ("" for none).
func (e *env) setProvider(email string, notify bool, agenda string) {
	e.t.Helper()
	ctx := context.Background()
	in, err := catalog.EditProvider(ctx, e.db.R, 1, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	in.Email, in.NotifyBookings, in.AgendaTime = email, notify, agenda
	if _, err := catalog.UpdateProvider(ctx, e.db, 1, in, e.now()); err != nil {
		e.t.Fatal(err)
	}
}

// to is what the SMTP server accepted for addr, parsed, in arrival order.
func (e *env) to(addr string) []smtptest.Parsed {
	e.t.Helper()
	var out []smtptest.Parsed
	for _, m := range e.smtp.Messages() {
		if !slices.Contains(m.To, addr) {
			continue
		}
		p, err := smtptest.Parse(m.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// A provider who has not asked for booking emails gets none: not for a new booking, a move or
// a cancel, though they have an address; the client's messages go as always.
func TestProviderWithoutBookingEmailsGetsNone(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.setProvider("ana@studio-ana.example", false, "")
	v := e.book("María", time.Date(2026, 11, 30, 15, 30, 0, 0, santiago))
	moved := time.Date(2026, 12, 1, 10, 0, 0, 0, santiago)
	if _, err := booking.Update(context.Background(), e.db, e.now(), v.Booking.ID, booking.Change{Start: &moved}, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if err := booking.Cancel(context.Background(), e.db, e.now(), v.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	e.waitFor("Booking cancelled", 1)
	if got := e.to("ana@studio-ana.example"); len(got) != 0 {
		t.Errorf("%d emails to the provider, want none: %q", len(got), got[0].Subject)
	}
	var rows int
	if err := e.db.Read.QueryRow(`SELECT count(*) FROM messages WHERE recipient = 'provider'`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Errorf("%d messages planned for the provider, want none", rows)
	}
}

// A provider's daily agenda goes at the time they chose on each day they have bookings — 07:00
// in Santiago on both sides of the September change to summer time, which is 11:00 UTC before
// and 10:00 UTC after — listing that day's bookings in time order, and not on a day without.
func TestProviderAgendaAcrossDST(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)})
	e.setProvider("ana@studio-ana.example", false, "07:00")
	// Saturday 5 September is on UTC−4; Sunday 6 starts the change (00:00 → 01:00); Monday 7 is
	// on UTC−3. Booked out of order.
	e.book("María", time.Date(2026, 9, 5, 10, 0, 0, 0, santiago))
	e.book("John", time.Date(2026, 9, 5, 8, 30, 0, 0, santiago))
	e.book("María", time.Date(2026, 9, 7, 9, 0, 0, 0, santiago))
	e.book("John", time.Date(2026, 9, 8, 23, 30, 0, 0, santiago)) // Tuesday's: not Monday's

	saturday := time.Date(2026, 9, 5, 11, 0, 0, 0, time.UTC)
	e.advance(saturday.Add(-time.Minute))
	e.probe(time.Date(2026, 12, 10, 9, 0, 0, 0, santiago))
	if got := e.to("ana@studio-ana.example"); len(got) != 0 {
		t.Fatalf("%d agendas a minute before 07:00 on Saturday, want none", len(got))
	}
	e.advance(saturday)
	eventually(t, "Saturday's agenda", func() bool { return len(e.to("ana@studio-ana.example")) == 1 })
	sat := e.to("ana@studio-ana.example")[0]
	if want := "Your day: Saturday, 5 September 2026"; sat.Subject != want {
		t.Errorf("subject %q, want %q", sat.Subject, want)
	}
	first, second := strings.Index(sat.Text, "08:30–09:15 Haircut · John Doe"), strings.Index(sat.Text, "10:00–10:45 Haircut · María López")
	if first < 0 || second < first || strings.Contains(sat.Text, "09:00–09:45") {
		t.Errorf("Saturday's agenda does not list its two bookings in order, and only them:\n%s", sat.Text)
	}
	if !strings.Contains(sat.Text, "America/Santiago, UTC−4") {
		t.Errorf("Saturday's agenda does not name the zone and offset:\n%s", sat.Text)
	}

	// Sunday has nothing booked: no email at its 07:00 (10:00 UTC, after the change).
	monday := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	e.advance(monday.Add(-time.Minute))
	e.probe(time.Date(2026, 12, 11, 9, 0, 0, 0, santiago))
	if got := e.to("ana@studio-ana.example"); len(got) != 1 {
		t.Fatalf("%d agendas before Monday's 07:00, want still 1 (none on Sunday)", len(got))
	}
	e.advance(monday)
	eventually(t, "Monday's agenda", func() bool { return len(e.to("ana@studio-ana.example")) == 2 })
	mon := e.to("ana@studio-ana.example")[1]
	if !strings.Contains(mon.Subject, "Monday, 7 September 2026") || !strings.Contains(mon.Text, "09:00–09:45 Haircut · María López") ||
		strings.Contains(mon.Text, "23:30") || !strings.Contains(mon.Text, "UTC−3") {
		t.Errorf("Monday's agenda:\n%s\n%s", mon.Subject, mon.Text)
	}
	if mon.Header.Get("List-Unsubscribe") != "" || strings.Contains(mon.Text, "unsubscribe") {
		t.Errorf("a provider's agenda carries a client's unsubscribe link:\n%s", mon.Text)
	}
	// The message log shows them, to the provider's address, in the provider's zone; the
	// planned ones too.
	eventually(t, "both agendas recorded as sent", func() bool {
		lp, err := e.s.Log(context.Background(), messages.LogFilter{Kind: messages.ProviderAgenda, State: messages.StateSent})
		return err == nil && lp.Total == 2
	})
	lp, err := e.s.Log(context.Background(), messages.LogFilter{Kind: messages.ProviderAgenda})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range lp.Entries {
		if x.Recipient != messages.ToProvider || x.To != "ana@studio-ana.example" || x.Zone != "America/Santiago" {
			t.Errorf("log entry %+v, want to the provider's address in America/Santiago", x)
		}
	}
}

// A provider's planned agendas follow their settings: a new time moves them, switching the
// agenda off drops them; saving other fields leaves them alone.
func TestProviderAgendaFollowsSettings(t *testing.T) {
	e := newEnv(t, envOptions{start: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)})
	e.setProvider("ana@studio-ana.example", false, "07:00")
	e.book("María", time.Date(2026, 9, 5, 10, 0, 0, 0, santiago))
	planned := func() []time.Time {
		t.Helper()
		rows, err := e.db.Read.Query(`SELECT send_at FROM messages WHERE kind = 'provider_agenda' AND state = 'pending' ORDER BY send_at`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []time.Time
		for rows.Next() {
			var ms int64
			if err := rows.Scan(&ms); err != nil {
				t.Fatal(err)
			}
			out = append(out, time.UnixMilli(ms).UTC())
		}
		return out
	}
	if got := planned(); len(got) != 1 || !got[0].Equal(time.Date(2026, 9, 5, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("planned %v, want Saturday 07:00 in Santiago (11:00 UTC)", got)
	}
	e.setProvider("ana@studio-ana.example", true, "07:00") // booking emails on: the agenda stays
	if got := planned(); len(got) != 1 || !got[0].Equal(time.Date(2026, 9, 5, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("after saving other fields, planned %v, want the same one", got)
	}
	e.setProvider("ana@studio-ana.example", false, "6:15")
	if got := planned(); len(got) != 1 || !got[0].Equal(time.Date(2026, 9, 5, 10, 15, 0, 0, time.UTC)) {
		t.Fatalf("after a new time, planned %v, want Saturday 06:15 in Santiago (10:15 UTC)", got)
	}
	e.setProvider("ana@studio-ana.example", false, "")
	if got := planned(); len(got) != 0 {
		t.Fatalf("after switching the agenda off, planned %v, want none", got)
	}
}
