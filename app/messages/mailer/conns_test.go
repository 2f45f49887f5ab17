package mailer_test

import (
	"context"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
)

// Emails share connections to the mail server: a run of confirmations opens no more
// connections than the dispatcher has workers (mailer.DefaultWorkers), where one connection per
// email would open one each.
func TestConnectionsAreKeptBetweenMessages(t *testing.T) {
	e := newEnv(t, envOptions{})
	const n = 8
	start := time.Date(2026, 11, 30, 9, 0, 0, 0, santiago)
	for i := range n {
		e.book("María", start.Add(time.Duration(i)*time.Hour))
	}
	e.waitFor("Booking confirmed", n)
	if opened, _ := e.smtp.Connections(); opened > mailer.DefaultWorkers {
		t.Errorf("%d emails opened %d connections, want at most %d (the workers)", n, opened, mailer.DefaultWorkers)
	}
}

// A kept connection the server has dropped meanwhile (here: it restarted) is not an attempt
// that failed: the next email goes out on a new connection at its first attempt.
func TestDroppedConnectionIsReplacedUnnoticed(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := e.keptConnection()
	e.smtp.Down()
	e.smtp.Up()
	v := e.book("María", start.Add(time.Hour))
	if m := e.confirmationSent(v.Booking.ID); m.Attempts != 1 {
		t.Errorf("the confirmation took %d attempts after the server dropped the kept connection, want 1", m.Attempts)
	}
}

// New settings retire the connections opened with the old ones: once the server asks for a
// login and the settings give one, the next email logs in on a new connection instead of
// going out on the old, anonymous one (which the server would refuse).
func TestNewSettingsRetireKeptConnections(t *testing.T) {
	e := newEnv(t, envOptions{})
	start := e.keptConnection()
	e.smtp.RequireAuth("studio", "secret")
	password := "secret"
	if err := e.s.SaveTransport(context.Background(), messages.TransportInput{Host: e.smtp.Host(), Port: e.smtp.Port(),
		Security: messages.SecurityOff, Username: "studio", Password: &password,
		FromName: "Studio Ana", FromAddress: "hola@studio-ana.example"}); err != nil {
		t.Fatal(err)
	}
	v := e.book("María", start.Add(time.Hour))
	if m := e.confirmationSent(v.Booking.ID); m.Attempts != 1 {
		t.Errorf("the confirmation took %d attempts after the settings changed, want 1", m.Attempts)
	}
}

// When the dispatcher stops, it closes the connections it kept (QUIT): none stays open.
func TestStoppedDispatcherClosesItsConnections(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.keptConnection()
	e.stop()
	if _, open := e.smtp.Connections(); open != 0 {
		t.Errorf("%d connections still open after the dispatcher stopped", open)
	}
}

// keptConnection books María at the returned time and waits until her confirmation went and
// the dispatcher keeps the connection it used open.
func (e *env) keptConnection() time.Time {
	e.t.Helper()
	start := time.Date(2026, 11, 30, 9, 0, 0, 0, santiago)
	e.book("María", start)
	e.waitFor("Booking confirmed", 1)
	eventually(e.t, "a connection kept open", func() bool { _, open := e.smtp.Connections(); return open > 0 })
	return start
}

// confirmationSent waits until the client's confirmation of booking id is recorded as sent
// (the first retry is at once, so a failed first attempt shows only in the count) and returns
// its log entry.
func (e *env) confirmationSent(id int64) messages.Entry {
	e.t.Helper()
	var got messages.Entry
	eventually(e.t, "the confirmation recorded as sent", func() bool {
		for _, m := range e.entries(id) {
			if m.Kind == messages.Confirmation && m.Recipient == messages.ToClient && m.State == messages.StateSent {
				got = m
				return true
			}
		}
		return false
	})
	return got
}
