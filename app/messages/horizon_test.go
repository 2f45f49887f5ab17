package messages_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/importer"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// horizonWorld is the fixture business on a database of its own, with a clock the test moves.
type horizonWorld struct {
	t   *testing.T
	ctx context.Context
	d   *db.DB
	now time.Time
	svc *messages.Service
}

func newHorizonWorld(t *testing.T) *horizonWorld {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "business.json"))
	if err != nil {
		t.Fatal(err)
	}
	w := &horizonWorld{t: t, ctx: context.Background(), d: dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName)),
		now: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)}
	if _, err := importer.Load(w.ctx, w.d, raw, w.now); err != nil {
		t.Fatal(err)
	}
	w.svc = messages.New(w.d, messages.Options{Now: func() time.Time { return w.now }})
	return w
}

func (w *horizonWorld) book(start time.Time) int64 {
	w.t.Helper()
	v, err := booking.Create(w.ctx, w.d, w.now, booking.NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 1,
		StatusID: booking.StatusConfirmed, Start: start, Source: booking.SourceAdmin})
	if err != nil {
		w.t.Fatalf("book at %v: %v", start, err)
	}
	return v.Booking.ID
}

// plan is one claim round's move of the horizon at the world's time.
func (w *horizonWorld) plan() {
	w.t.Helper()
	if err := w.d.InTx(w.ctx, func(q *db.Queries) error { _, err := messages.PlanDueReminders(w.ctx, q, w.now); return err }); err != nil {
		w.t.Fatal(err)
	}
}

// rows are booking id's reminder rows as "state offset-minutes send_at".
func (w *horizonWorld) rows(id int64) []string {
	w.t.Helper()
	rows, err := w.d.Read.Query(`SELECT state, offset_min, send_at FROM messages WHERE booking_id = ? AND kind = 'reminder'
		AND recipient = 'client' ORDER BY offset_min DESC, id`, id)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var state string
		var off, at int64
		if err := rows.Scan(&state, &off, &at); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, state+" "+time.Duration(off*int64(time.Minute)).String()+" "+db.Time(at).UTC().Format(time.RFC3339))
	}
	return out
}

// listed are booking id's reminders as its page lists them: "id? offset send_at".
func (w *horizonWorld) listed(id int64) []string {
	w.t.Helper()
	entries, err := w.svc.ForBooking(w.ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Kind != messages.Reminder || e.State != messages.StatePending {
			continue
		}
		written := "unwritten"
		if e.ID != 0 {
			written = "written"
		}
		out = append(out, written+" "+e.Offset.String()+" "+e.SendAt.UTC().Format(time.RFC3339))
	}
	return out
}

func (w *horizonWorld) want(what string, got []string, want ...string) {
	w.t.Helper()
	if !slices.Equal(got, want) {
		w.t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// A booking ten days ahead gets its reminders' rows only when the horizon comes within a day of
// them, once each however often it moves; until then its page lists them as planned.
func TestRemindersAreWrittenADayAhead(t *testing.T) {
	w := newHorizonWorld(t)
	start := w.now.Add(10 * 24 * time.Hour)
	id := w.book(start)
	w.want("rows when booked ten days ahead", w.rows(id))
	w.want("listed when booked", w.listed(id),
		"unwritten 24h0m0s 2026-11-11T09:00:00Z", "unwritten 2h0m0s 2026-11-12T07:00:00Z")

	w.now = start.Add(-48*time.Hour - time.Minute)
	w.plan()
	w.want("rows two days ahead", w.rows(id))
	w.now = start.Add(-48 * time.Hour)
	w.plan()
	w.want("rows a day before the 24-hour reminder", w.rows(id), "pending 24h0m0s 2026-11-11T09:00:00Z")
	w.want("listed a day before the 24-hour reminder", w.listed(id),
		"written 24h0m0s 2026-11-11T09:00:00Z", "unwritten 2h0m0s 2026-11-12T07:00:00Z")
	w.now = start.Add(-26 * time.Hour)
	w.plan()
	w.plan()
	w.want("rows a day before the 2-hour reminder", w.rows(id), "pending 24h0m0s 2026-11-11T09:00:00Z", "pending 2h0m0s 2026-11-12T07:00:00Z")
	w.want("listed", w.listed(id), "written 24h0m0s 2026-11-11T09:00:00Z", "written 2h0m0s 2026-11-12T07:00:00Z")
}

// A reminder not yet written follows the settings as they are a day before it: a changed
// reminder list applies to it.
func TestUnwrittenRemindersFollowTheSettings(t *testing.T) {
	w := newHorizonWorld(t)
	start := w.now.Add(10 * 24 * time.Hour)
	id := w.book(start)
	if _, err := w.d.Write.Exec(`UPDATE message_settings SET reminder_offsets = '2880'`); err != nil {
		t.Fatal(err)
	}
	w.want("listed after the change", w.listed(id), "unwritten 48h0m0s 2026-11-10T09:00:00Z")
	w.now = start.Add(-72 * time.Hour)
	w.plan()
	w.want("rows", w.rows(id), "pending 48h0m0s 2026-11-10T09:00:00Z")
}

// A booking moved past the horizon keeps its written reminder, moved; a cancelled booking and
// a booking whose messages were never planned (a JSON import's) get none from the horizon.
func TestTheHorizonWritesOnlyLiveBookingsReminders(t *testing.T) {
	w := newHorizonWorld(t)
	soon := w.now.Add(20 * time.Hour)
	moved := w.book(soon)
	w.want("a booking within a day", w.rows(moved), "skipped 24h0m0s 2026-11-02T05:00:00Z", "pending 2h0m0s 2026-11-03T03:00:00Z")
	later := soon.Add(7 * 24 * time.Hour)
	if _, err := booking.Update(w.ctx, w.d, w.now, moved, booking.Change{Start: &later}, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	w.want("moved a week later", w.rows(moved), "skipped 24h0m0s 2026-11-02T05:00:00Z", "pending 2h0m0s 2026-11-10T03:00:00Z")

	cancelled := w.book(w.now.Add(5 * 24 * time.Hour))
	if err := booking.Cancel(w.ctx, w.d, w.now, cancelled, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	w.want("listed for a cancelled booking", w.listed(cancelled))
	// A JSON import writes bookings without planning their messages: no message_bookings row.
	imported := w.book(w.now.Add(6 * 24 * time.Hour))
	if _, err := w.d.Write.Exec(`DELETE FROM message_bookings WHERE booking_id = ?`, imported); err != nil {
		t.Fatal(err)
	}
	w.want("listed for an imported booking", w.listed(imported))
	for range 12 {
		w.now = w.now.Add(24 * time.Hour)
		w.plan()
	}
	w.want("the moved booking's reminders", w.rows(moved),
		"skipped 24h0m0s 2026-11-02T05:00:00Z", "pending 24h0m0s 2026-11-09T05:00:00Z", "pending 2h0m0s 2026-11-10T03:00:00Z")
	w.want("the cancelled booking's reminders", w.rows(cancelled))
	w.want("the imported booking's reminders", w.rows(imported))
}

// After the appliance was stopped over a reminder's moment, the first plan writes it due at
// once, for a booking that has not started; one whose booking has started is not written.
func TestTheHorizonCatchesUpAfterAStop(t *testing.T) {
	w := newHorizonWorld(t)
	start := w.now.Add(5 * 24 * time.Hour)
	ahead := w.book(start)
	started := w.book(start.Add(-30 * time.Hour))
	w.now = start.Add(-3 * time.Hour) // stopped from booking time until an hour before the 2-hour reminder
	w.plan()
	w.want("the booking still ahead", w.rows(ahead), "pending 24h0m0s 2026-11-06T09:00:00Z", "pending 2h0m0s 2026-11-07T07:00:00Z")
	var due int64
	if err := w.d.Read.QueryRow(`SELECT next_attempt_at FROM messages WHERE booking_id = ? AND offset_min = 1440`, ahead).Scan(&due); err != nil {
		t.Fatal(err)
	}
	if !db.Time(due).Equal(start.Add(-24 * time.Hour)) {
		t.Errorf("the missed reminder is due %v, want its moment %v (due at once)", db.Time(due).UTC(), start.Add(-24*time.Hour))
	}
	w.want("the booking that started meanwhile", w.rows(started))
}
