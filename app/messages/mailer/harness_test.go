package mailer_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"frontdesk/app/booking"
	"frontdesk/app/importer"
	"frontdesk/app/messages"
	"frontdesk/app/messages/mailer"
	"frontdesk/app/messages/smstest"
	"frontdesk/app/messages/smtptest"
	"frontdesk/app/messages/watest"
	"frontdesk/app/queue"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

// fixture (app/messages/testdata/business.json) is a business in America/Santiago open around the clock,
// with one provider, one service and clients with addresses; app and admin tests use it too.
func fixture(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("../testdata/business.json")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

var (
	templateOnce  sync.Once
	templateBytes []byte
	templateErr   error
)

// templateDB is a database file with every migration applied and the fixture imported.
func templateDB(t *testing.T) []byte {
	t.Helper()
	raw := fixture(t)
	templateOnce.Do(func() {
		dir, err := os.MkdirTemp("", "frontdesk-messages-")
		if err != nil {
			templateErr = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, db.FileName)
		d, err := db.Open(context.Background(), path)
		if err != nil {
			templateErr = err
			return
		}
		if _, templateErr = importer.Load(context.Background(), d, raw, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); templateErr != nil {
			d.Close()
			return
		}
		if templateErr = d.Close(); templateErr != nil {
			return
		}
		templateBytes, templateErr = os.ReadFile(path)
	})
	if templateErr != nil {
		t.Fatal(templateErr)
	}
	return templateBytes
}

// env is a real SQLite file with the fixture business, a real SMTP server, the messaging
// service on an injected clock and its dispatcher running.
type env struct {
	t    *testing.T
	db   *db.DB
	s    *mailer.Mailer
	smtp *smtptest.Server
	sms  *smstest.Server // Twilio's Messages API and a generic gateway
	wa   *watest.Server  // the WhatsApp Cloud API
	mu   sync.Mutex
	at   time.Time
	real bool
	stop func() // stops the dispatcher and waits for it (once; again at the test's end is a no-op)
}

type envOptions struct {
	realClock bool
	schedule  queue.Schedule
	start     time.Time
	log       io.Writer // the service's JSON log; discarded when nil
	handoff   bool      // messages due now are handed to the dispatcher, as serve wires it
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	// Every test starts from a copy of one migrated, imported database: migrating costs
	// seconds under the race detector, copying a file nothing.
	if err := os.WriteFile(filepath.Join(dir, db.FileName), templateDB(t), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, filepath.Join(dir, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	e := &env{t: t, db: d, at: o.start, real: o.realClock}
	if e.at.IsZero() {
		e.at = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	}
	box, err := secrets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := e.now
	if o.realClock {
		now = time.Now
	}
	e.smtp = smtptest.Start(t)
	e.sms = smstest.Start(t)
	e.wa = watest.Start(t)
	logTo := o.log
	if logTo == nil {
		logTo = io.Discard
	}
	mo := mailer.Options{
		Messages: messages.Options{Now: now, Log: slog.New(slog.NewJSONHandler(logTo, nil)), Secrets: box, Links: links{},
			TwilioAPI: e.sms.URL, WhatsAppAPI: e.wa.URL},
		Schedule: o.schedule, Timeout: 5 * time.Second,
	}
	if o.handoff {
		mo.Handoff = messages.NewHandoff(d)
	}
	e.s = mailer.New(d, mo)
	err = e.s.SaveTransport(ctx, messages.TransportInput{Host: e.smtp.Host(), Port: e.smtp.Port(), Security: messages.SecurityOff,
		FromName: "Studio Ana", FromAddress: "hola@studio-ana.example"})
	if err != nil {
		t.Fatal(err)
	}
	d.AfterCommit(e.s.Wake)
	runCtx, cancel := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- e.s.Dispatcher().Run(runCtx) }()
	e.stop = sync.OnceFunc(func() {
		cancel()
		select {
		case err := <-stopped:
			if err != nil {
				t.Errorf("dispatcher: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("dispatcher did not stop")
		}
	})
	t.Cleanup(e.stop)
	return e
}

// links is a public URL for tests.
type links struct{}

func (links) URL(path string, _ url.Values) string { return "https://book.example.com" + path }

func (e *env) now() time.Time {
	if e.real {
		return time.Now()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.at
}

// advance moves the clock to t and makes the dispatcher look.
func (e *env) advance(t time.Time) {
	e.mu.Lock()
	e.at = t
	e.mu.Unlock()
	e.s.Wake()
}

func (e *env) clientID(first string) int64 {
	e.t.Helper()
	var id int64
	if err := e.db.Read.QueryRow("SELECT id FROM clients WHERE first_name = ?", first).Scan(&id); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// book makes a booking the way the API and the admin do.
func (e *env) book(client string, start time.Time) booking.View {
	e.t.Helper()
	v, err := booking.Create(context.Background(), e.db, e.now(), booking.NewBooking{
		LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: e.clientID(client), StatusID: booking.StatusConfirmed,
		Start: start, Source: booking.SourceAdmin,
	})
	if err != nil {
		e.t.Fatalf("book %s at %v: %v", client, start, err)
	}
	return v
}

// eventually polls cond until it holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// received is what the SMTP server accepted, parsed, with a subject containing sub.
func (e *env) received(sub string) []smtptest.Parsed {
	e.t.Helper()
	var out []smtptest.Parsed
	for _, m := range e.smtp.Messages() {
		p, err := smtptest.Parse(m.Data)
		if err != nil {
			e.t.Fatalf("parse received message: %v\n%s", err, m.Data)
		}
		if strings.Contains(p.Subject, sub) {
			out = append(out, p)
		}
	}
	return out
}

// waitFor waits until n messages with sub in the subject arrived and returns them.
func (e *env) waitFor(sub string, n int) []smtptest.Parsed {
	e.t.Helper()
	eventually(e.t, "message "+sub, func() bool { return len(e.received(sub)) >= n })
	return e.received(sub)
}

// entries are the booking's messages as its admin page lists them.
func (e *env) entries(bookingID int64) []messages.Entry {
	e.t.Helper()
	out, err := e.s.ForBooking(context.Background(), bookingID)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// planned is booking id's pending reminder off ahead, as its page lists it: written already, or
// still past the reminder horizon.
func (e *env) planned(bookingID int64, off time.Duration) messages.Entry {
	e.t.Helper()
	for _, x := range e.entries(bookingID) {
		if x.Kind == messages.Reminder && x.Offset == off && x.State == messages.StatePending {
			return x
		}
	}
	e.t.Fatalf("booking %d has no pending %v reminder: %+v", bookingID, off, e.entries(bookingID))
	return messages.Entry{}
}

// probe makes a booking for John and waits for its confirmation: every message due before it
// has been claimed by then (one claim round takes every due first attempt).
func (e *env) probe(start time.Time) {
	e.t.Helper()
	before := len(e.received("Booking confirmed"))
	e.book("John", start)
	e.waitFor("Booking confirmed", before+1)
}

// calendarStart parses an .ics with an independent library and returns its event's start.
func calendarStart(t *testing.T, raw []byte) (time.Time, *ics.VEvent) {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("parse .ics: %v\n%s", err, raw)
	}
	if len(cal.Events()) != 1 {
		t.Fatalf(".ics has %d events, want 1", len(cal.Events()))
	}
	ev := cal.Events()[0]
	start, err := ev.GetStartAt()
	if err != nil {
		t.Fatal(err)
	}
	return start, ev
}
