package messages_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/importer"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// TestVisitMessagesDescribeEveryService: a haircut with Ana then a colour with Ben, booked as
// one visit, gets one confirmation and one set of reminders — its first booking's — and they
// name both services, both providers, each one's local times and the visit's total; the
// colour's booking has no client messages of its own, and a message planned for it by a
// change of that booking alone is not sent.
func TestVisitMessagesDescribeEveryService(t *testing.T) {
	ctx := context.Background()
	raw, err := os.ReadFile(filepath.Join("testdata", "business.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture business with a second service and provider: Ben does colours.
	var biz map[string]any
	if err := json.Unmarshal(raw, &biz); err != nil {
		t.Fatal(err)
	}
	biz["services"] = append(biz["services"].([]any), map[string]any{"key": "colour", "name": "Colour", "price": "40000", "duration": 60})
	ben := map[string]any{}
	for k, v := range biz["providers"].([]any)[0].(map[string]any) {
		ben[k] = v
	}
	ben["key"], ben["public_name"], ben["services"] = "ben", "Ben", []string{"colour"}
	biz["providers"] = append(biz["providers"].([]any), ben)
	if raw, err = json.Marshal(biz); err != nil {
		t.Fatal(err)
	}
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	now := time.Now()
	if _, err := importer.Load(ctx, d, raw, now); err != nil {
		t.Fatal(err)
	}
	ms := db.Millis(now)
	scl, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	day := now.In(scl).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 10, 0, 0, 0, scl)
	v, err := booking.BookVisit(ctx, d, now, booking.NewVisit{LocationID: 1, ClientID: 1, StatusID: booking.StatusConfirmed,
		Source: booking.SourceConnect, Start: start, Segments: []booking.VisitSegment{{ServiceID: 1, ProviderID: 1}, {ServiceID: 2, ProviderID: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	first, second := v.Bookings[0].Booking.ID, v.Bookings[1].Booking.ID

	// The reminders are written a day before they are due: move the horizon there, as the
	// dispatcher's claim rounds do (horizon.go).
	if err := d.InTx(ctx, func(q *db.Queries) error {
		_, err := messages.PlanDueReminders(ctx, q, start.Add(-25*time.Hour))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	count := func(id int64, kind string) (n int) {
		t.Helper()
		if err := d.Read.QueryRow(`SELECT count(*) FROM messages WHERE booking_id = ? AND kind = ? AND recipient = 'client' AND state <> 'skipped'`, id, kind).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if c, r := count(first, "confirmation"), count(first, "reminder"); c != 1 || r == 0 {
		t.Fatalf("first booking: %d confirmations, %d reminders; want 1 and some", c, r)
	}
	if c, r := count(second, "confirmation"), count(second, "reminder"); c != 0 || r != 0 {
		t.Fatalf("the visit's second booking: %d confirmations, %d reminders of its own; want none", c, r)
	}

	svc := messages.New(d, messages.Options{})
	tr := messages.Transport{Host: "localhost", Port: 25, From: mail.Address{Name: "Studio Ana", Address: "hola@example.com"}}
	for _, kind := range []string{"confirmation", "reminder"} {
		var id int64
		if err := d.Read.QueryRow(`SELECT id FROM messages WHERE booking_id = ? AND kind = ? AND recipient = 'client' ORDER BY send_at LIMIT 1`, first, kind).Scan(&id); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		p, err := svc.Prepare(ctx, id, tr, now)
		if err != nil {
			t.Fatal(err)
		}
		if p.Skip != "" {
			t.Fatalf("%s skipped: %s", kind, p.Skip)
		}
		text := p.Envelope.Content.Text
		for _, want := range []string{"Haircut", "Ana", "Colour", "Ben", "10:00", "10:45", "11:45", "Total: $65,000"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", kind, want, text)
			}
		}
	}

	// A message planned for the second booking alone (its own change) stays unsent.
	if _, err := d.Write.Exec(`INSERT INTO messages (message_key, kind, recipient, channel, to_address, booking_id, detail_json, state, note, send_at, next_attempt_at, created_at, updated_at)
		VALUES ('k-second', 'confirmation', 'client', 'email', '', ?, '', 'pending', '', ?, ?, ?, ?)`, second, ms, sql.NullInt64{Int64: ms, Valid: true}, ms, ms); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := d.Read.QueryRow(`SELECT id FROM messages WHERE message_key = 'k-second'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Prepare(ctx, id, tr, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.Skip == "" {
		t.Fatalf("the second booking's own confirmation would be sent:\n%s", p.Envelope.Content.Text)
	}
}
