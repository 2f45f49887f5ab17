package mailer_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/managelink"
	"frontdesk/app/messages"
)

// classEnv turns the fixture's service into a class of 2 seats with two one-off sessions.
func classEnv(t *testing.T) (*env, []time.Time) {
	t.Helper()
	e := newEnv(t, envOptions{})
	if _, err := e.db.Write.Exec(`UPDATE services SET capacity = 2 WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	starts := []time.Time{time.Date(2026, 11, 30, 18, 30, 0, 0, santiago), time.Date(2026, 12, 2, 18, 30, 0, 0, santiago)}
	for _, start := range starts {
		if _, err := booking.CreateSession(context.Background(), e.db, e.now(), booking.SessionInput{
			LocationID: 1, ServiceID: 1, ProviderID: 1, Start: start,
		}); err != nil {
			t.Fatal(err)
		}
	}
	return e, starts
}

// seat books client into the class session at start.
func (e *env) seat(client string, start time.Time) booking.View {
	e.t.Helper()
	return e.book(client, start)
}

// A waiting client who is given a seat by a cancel gets "you got a seat" — in the same
// transaction as the promotion — with the session's local time, an .ics at the session's
// instant and a manage link to the new booking, instead of a plain confirmation. The owner's
// edited wording (here in Spanish, the business's language) is what goes out.
func TestWaitlistPromotionSendsSeatMessage(t *testing.T) {
	ctx := context.Background()
	e, starts := classEnv(t)
	start := starts[0]
	john := e.seat("John", start)
	e.seat("Nadia", start)
	maria := e.clientID("María")
	w, err := booking.JoinWaitlist(ctx, e.db, e.now(), booking.JoinRequest{
		LocationID: 1, ServiceID: 1, ProviderID: 1, Start: start, ClientID: maria, Source: booking.SourceOnline,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := booking.Cancel(ctx, e.db, e.now(), john.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	promoted, err := booking.GetWaitlistEntry(ctx, e.db.R, w.Entry.ID)
	if err != nil || promoted.Entry.Status != booking.WaitlistBooked {
		t.Fatalf("entry after the cancel: %+v (%v), want booked", promoted.Entry, err)
	}
	bookingID := promoted.Entry.BookingID.Int64

	got := e.waitFor("You got a seat", 1)
	if len(got) != 1 || got[0].Header.Get("To") == "" || !strings.Contains(got[0].Header.Get("To"), "maria@example.com") {
		t.Fatalf("seat messages %d, to %q; want one to maria@example.com", len(got), got[0].Header.Get("To"))
	}
	m := got[0]
	if !strings.HasSuffix(m.Subject, "on Monday, 30 November 2026 at 18:30") {
		t.Errorf("subject %q, want the session's local date and time", m.Subject)
	}
	if !strings.Contains(m.Text, "18:30 (America/Santiago, UTC−3)") {
		t.Errorf("text lacks the local time with its zone:\n%s", m.Text)
	}
	if at, _ := calendarStart(t, m.Attachments["booking.ics"]); !at.Equal(start) {
		t.Errorf(".ics starts %v, want the session's %v", at, start)
	}
	link := regexp.MustCompile(`https://book\.example\.com/book/manage/([A-Za-z0-9_-]{43})`).FindStringSubmatch(m.Text)
	if link == nil {
		t.Fatalf("no manage link in:\n%s", m.Text)
	}
	if id, err := managelink.Find(ctx, e.db.R, link[1], e.now()); err != nil || id != bookingID {
		t.Errorf("the link leads to booking %d (%v), want %d", id, err, bookingID)
	}
	// The seat message replaces the confirmation of the promoted booking; the log says so.
	kinds := map[messages.Kind]int{}
	for _, en := range e.entries(bookingID) {
		kinds[en.Kind]++
	}
	if kinds[messages.WaitlistSeat] != 1 || kinds[messages.Confirmation] != 0 {
		t.Errorf("promoted booking's messages %v, want one waitlist_seat and no confirmation", kinds)
	}

	// The owner words it in Spanish; the business writes in Spanish.
	if err := e.s.SaveTemplate(ctx, messages.WaitlistSeat, "es", messages.Template{
		Subject: "¡Cupo para {{.ClientFirstName}}! {{.Service}}, {{.Date}} {{.Time}}",
		Body:    "Te pasamos de la lista de espera a la clase: {{.When}}.\n{{.ManageLink}}",
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Write.Exec(`UPDATE company SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	second := starts[1]
	e.seat("John", second)
	nadia := e.seat("Nadia", second)
	if _, err := booking.JoinWaitlist(ctx, e.db, e.now(), booking.JoinRequest{
		LocationID: 1, ServiceID: 1, ProviderID: 1, Start: second, ClientID: maria, Source: booking.SourceOnline,
	}); err != nil {
		t.Fatal(err)
	}
	if err := booking.Cancel(ctx, e.db, e.now(), nadia.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	es := e.waitFor("¡Cupo para María!", 1)[0]
	if !strings.Contains(es.Subject, "miércoles, 2 de diciembre de 2026 18:30") {
		t.Errorf("Spanish subject %q, want the session's local date and time in Spanish", es.Subject)
	}
	if !strings.Contains(es.Text, "Te pasamos de la lista de espera") || !strings.Contains(es.Text, "https://book.example.com/book/manage/") {
		t.Errorf("Spanish text is not the owner's template with the link:\n%s", es.Text)
	}
	if at, _ := calendarStart(t, es.Attachments["booking.ics"]); !at.Equal(second) {
		t.Errorf(".ics starts %v, want %v", at, second)
	}
}

// With the seat message switched off the promoted client still hears about the booking: the
// ordinary confirmation goes.
func TestWaitlistSeatMessageOffSendsConfirmation(t *testing.T) {
	ctx := context.Background()
	e, starts := classEnv(t)
	st, err := e.s.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := messages.OptionsInput{Offsets: st.Offsets}
	for _, k := range st.Kinds {
		k.Enabled = k.Kind != messages.WaitlistSeat
		in.Kinds = append(in.Kinds, k)
	}
	if err := e.s.SaveOptions(ctx, in); err != nil {
		t.Fatal(err)
	}
	john := e.seat("John", starts[0])
	e.seat("Nadia", starts[0])
	if _, err := booking.JoinWaitlist(ctx, e.db, e.now(), booking.JoinRequest{
		LocationID: 1, ServiceID: 1, ProviderID: 1, Start: starts[0], ClientID: e.clientID("María"), Source: booking.SourceOnline,
	}); err != nil {
		t.Fatal(err)
	}
	if err := booking.Cancel(ctx, e.db, e.now(), john.Booking.ID, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	eventually(t, "María's confirmation", func() bool {
		for _, m := range e.received("Booking confirmed") {
			if strings.Contains(m.Header.Get("To"), "maria@example.com") {
				return true
			}
		}
		return false
	})
	if n := len(e.received("You got a seat")); n != 0 {
		t.Errorf("%d seat messages while switched off", n)
	}
}
