package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"frontdesk/app/fail"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// Unique strings, so a byte search of the files finds only what the erasure missed.
const (
	eraseFirst = "Zephyrine"
	eraseLast  = "Quortleby"
	eraseEmail = "zephyrine.quortleby@erase-test.example"
	erasePhone = "+56987654321"
)

// seedErasable creates the client through Create (its client.created event and activity
// entry copy every field), a past booking, a message to the client that was sent (address,
// subject and the server's reply), one still pending, and a receiver's answer that echoes the
// email. It returns the database path, the client id and the bookings count.
func seedErasable(t *testing.T) (*db.DB, string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), db.FileName)
	d := dbtest.Open(t, path)
	ctx := context.Background()
	c, err := Create(ctx, d, testNow, Input{
		FirstName: Value(eraseFirst), LastName: Value(eraseLast), Email: Value(eraseEmail),
		Phone: Value(erasePhone), Address: Value("Calle Quortleby 123"), IdentificationNumber: Value("QX-998877"),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	past := db.Millis(testNow) - 86_400_000
	for _, s := range []string{
		`INSERT OR IGNORE INTO countries (id, code, name) VALUES (990, 'ZZ', 'Test')`,
		`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES (1, 'l1', 'Main', 'UTC', 990, 0, 0)`,
		`INSERT INTO services (id, uuid, name, duration_min, created_at, updated_at) VALUES (1, 's1', 'Cut', 30, 0, 0)`,
		`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (1, 'Pat', 1, 0, 0)`,
	} {
		if _, err := d.Write.Exec(s); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
	}
	for i, start := range []int64{past, past + 3_600_000} {
		if _, err := d.Write.Exec(`INSERT INTO bookings (id, location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
			VALUES (?, 1, 1, 1, ?, 1, ?, ?, ?, ?, 1000, 1000, 0, 0)`, i+1, c.ID, start, start+1_800_000, start, start+1_800_000); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{
		`INSERT INTO messages (id, message_key, kind, recipient, to_address, booking_id, state, send_at, subject, note, created_at, updated_at)
			VALUES (1, 'k1', 'confirmation', 'client', '` + eraseEmail + `', 1, 'sent', 0, 'Your booking, ` + eraseFirst + `', '250 OK <` + eraseEmail + `>', 0, 0)`,
		`INSERT INTO message_attempts (message_id, attempt, started_at, duration_ms, reply, to_address)
			VALUES (1, 1, 0, 5, '250 2.0.0 accepted for ` + eraseEmail + `', '` + eraseEmail + `')`,
		`INSERT INTO messages (id, message_key, kind, recipient, booking_id, state, send_at, created_at, updated_at)
			VALUES (2, 'k2', 'cancelled', 'client', 2, 'pending', 0, 0, 0)`,
		`INSERT INTO delivery_texts (text, last_used_at) VALUES ('{"echo":"` + eraseEmail + `"}', 0)`,
	} {
		if _, err := d.Write.Exec(s); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
	}
	return d, path, c.ID
}

// TestEraseLeavesNoBytes erases a client and searches the database file and its WAL, byte by
// byte, for the client's name, email and phone — while the database is open, when the WAL is
// live, and after it closes: secure_delete zeroed what the erasure freed and the WAL was
// scrubbed. The bookings stay, the pending message is dropped, and client.updated carries the
// erased fields.
func TestEraseLeavesNoBytes(t *testing.T) {
	d, path, id := seedErasable(t)
	ctx := context.Background()
	var bookings int
	d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE client_id = ?`, id).Scan(&bookings)

	got, err := Erase(ctx, d, testNow, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Client.FirstName != ErasedName || got.Client.Email != "" || got.Client.Phone != nil || got.DroppedMessages != 1 || got.WALKept {
		t.Errorf("erased client %+v, dropped %d", got.Client, got.DroppedMessages)
	}
	var after int
	d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE client_id = ?`, id).Scan(&after)
	if after != bookings || after != 2 {
		t.Errorf("bookings %d, want %d", after, bookings)
	}
	var body []byte
	if err := d.Read.QueryRow(`SELECT body FROM events WHERE type = 'client.updated' ORDER BY created_at DESC, rowid DESC LIMIT 1`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Data["first_name"] != ErasedName || ev.Data["email"] != "" || ev.Data["phone"] != nil {
		t.Errorf("client.updated data %v", ev.Data)
	}
	var state string
	d.Read.QueryRow(`SELECT state FROM messages WHERE id = 2`).Scan(&state)
	if state != "skipped" {
		t.Errorf("pending message is %s, want skipped", state)
	}
	// While the database is open the WAL is live: the erasure itself must have scrubbed it.
	wantNoErasedBytes(t, path, path+"-wal")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	wantNoErasedBytes(t, path, path+"-wal")
}

// wantNoErasedBytes searches each file for the erased client's values.
func wantNoErasedBytes(t *testing.T, files ...string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, needle := range []string{eraseFirst, eraseLast, eraseEmail, erasePhone, "QX-998877"} {
			if i := bytes.Index(b, []byte(needle)); i >= 0 {
				lo := max(0, i-40)
				t.Errorf("%s still holds %q at %d: %q", filepath.Base(f), needle, i, b[lo:min(len(b), i+60)])
			}
		}
	}
}

// TestEraseTwiceAndOpenBookings: a second erasure answers the erased client without writing;
// a client with an upcoming booking is refused.
func TestEraseTwiceAndOpenBookings(t *testing.T) {
	d, _, id := seedErasable(t)
	ctx := context.Background()
	if _, err := d.Write.Exec(`UPDATE bookings SET start_at = ?, end_at = ?, block_start_at = ?, block_end_at = ? WHERE id = 2`,
		db.Millis(testNow)+3_600_000, db.Millis(testNow)+5_400_000, db.Millis(testNow)+3_600_000, db.Millis(testNow)+5_400_000); err != nil {
		t.Fatal(err)
	}
	if _, err := Erase(ctx, d, testNow, id); !errors.Is(err, ErrOpenBookings) {
		t.Fatalf("erase with an upcoming booking: %v, want ErrOpenBookings", err)
	}
	if _, err := d.Write.Exec(`UPDATE bookings SET status_id = 5 WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	if _, err := Erase(ctx, d, testNow, id); err != nil {
		t.Fatal(err)
	}
	events := countEvents(t, d)
	again, err := Erase(ctx, d, testNow, id)
	if err != nil || !again.Already || again.Client.FirstName != ErasedName {
		t.Fatalf("second erase: %+v, %v", again, err)
	}
	if n := countEvents(t, d); n != events {
		t.Errorf("second erase wrote %d events", n-events)
	}
	if _, err := Erase(ctx, d, testNow, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing client: %v", err)
	}
	var f *fail.Error
	if !errors.As(ErrOpenBookings, &f) {
		t.Error("ErrOpenBookings is not a fail.Error")
	}
}

// TestExportHasBookingsAndMessages: the export of a client holds its profile, both bookings and
// the message sent to it.
func TestExportHasBookingsAndMessages(t *testing.T) {
	d, _, id := seedErasable(t)
	x, err := ExportClient(context.Background(), d, testNow, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Client   map[string]any              `json:"client"`
		Sections map[string][]map[string]any `json:"sections"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Client["email"] != eraseEmail || len(doc.Sections["profile"]) != 1 {
		t.Errorf("client %v, profile %v", doc.Client, doc.Sections["profile"])
	}
	if n := len(doc.Sections["bookings"]); n != 2 {
		t.Errorf("%d bookings, want 2", n)
	}
	if m := doc.Sections["messages"]; len(m) != 2 || m[0]["to_address"] != eraseEmail {
		t.Errorf("messages %v", m)
	}
	if _, err := ExportClient(context.Background(), d, testNow, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing client: %v", err)
	}
}
