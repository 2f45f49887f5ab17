package app

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/messages/watest"
)

// fakeClock is the served process's clock, moved by the test.
type fakeClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	c.at = t
	c.mu.Unlock()
}

// probe books John (who gets email) at start and waits for his confirmation: by then the
// dispatcher has looked at the outbox at the clock's time, so every message due then has gone.
func (w *repliesWorld) probe(start time.Time) {
	w.t.Helper()
	before := len(w.smtp.Messages())
	body := `{"location_id":1,"service_id":1,"provider_id":1,"client_id":2,"status_id":1,"start_time":"` + start.Format(time.RFC3339) + `"}`
	w.call(http.MethodPost, "/v3/bookings", body, http.StatusCreated)
	waitFor(w.t, "the probe's confirmation email", func() bool { return len(w.smtp.Messages()) > before })
}

// templates are the WhatsApp messages received of template name.
func (w *repliesWorld) templates(name string) []watest.Message {
	var out []watest.Message
	for _, m := range w.wa.Messages() {
		if m.Template == name {
			out = append(out, m)
		}
	}
	return out
}

// WhatsApp end to end under an injected clock, through the real router and a Cloud API
// receiver that checks every request against Meta's description: a booking made through /v3
// for a client who prefers WhatsApp produces exactly one template message with the local time;
// moved through /v3 to the Sunday Chile's clocks go back (4 April 2027, 00:00 UTC−3 → 23:00
// UTC−4), its 24-hour reminder goes once, exactly 24 hours before (14:00 UTC, 11:00 on
// Saturday's clock), naming the new local time 10:00 — not at the old booking's time, nor at
// "the same wall time the day before"; a cancelled booking's reminder never goes.
func TestWhatsAppRemindersEndToEnd(t *testing.T) {
	santiago, _ := time.LoadLocation("America/Santiago")
	clock := &fakeClock{at: time.Date(2027, 3, 29, 12, 0, 0, 0, santiago)}
	w := newRepliesWorldAt(t, clock.now)

	first := time.Date(2027, 4, 2, 16, 0, 0, 0, santiago) // Friday, UTC−3
	a := w.book(first)
	got := w.waitWhatsApp(1)[0]
	if got.Template != "booking_confirmation" || len(got.Params) != 4 || got.Params[3] != "16:00" || !strings.Contains(got.Params[2], "2 April 2027") {
		t.Errorf("confirmation %+v, want the template with the date and the local time 16:00", got)
	}
	w.waitSent(a)
	w.probe(time.Date(2027, 5, 3, 9, 0, 0, 0, santiago))
	if n := len(w.wa.Messages()); n != 1 {
		t.Fatalf("%d WhatsApp messages for one booking, want exactly one", n)
	}

	// Moved to Sunday 10:00, on the far side of the change (UTC−4: 14:00 UTC).
	moved := time.Date(2027, 4, 4, 10, 0, 0, 0, santiago)
	if _, off := moved.Zone(); off != -4*3600 {
		t.Fatalf("the zone database has Sunday 4 April 2027 at UTC%+d, not UTC−4", off/3600)
	}
	w.call(http.MethodPatch, "/v3/bookings/"+strconv.FormatInt(a, 10), `{"start_time":"`+moved.Format(time.RFC3339)+`"}`, http.StatusOK)

	// The old booking's reminder time: nothing.
	clock.set(first.Add(-24 * time.Hour))
	w.probe(time.Date(2027, 5, 3, 10, 0, 0, 0, santiago))
	// The same wall time the day before (Saturday 10:00 UTC−3, 13:00 UTC) and the minute
	// before the reminder: nothing yet.
	clock.set(time.Date(2027, 4, 3, 13, 59, 0, 0, time.UTC))
	w.probe(time.Date(2027, 5, 3, 11, 0, 0, 0, santiago))
	if r := w.templates("booking_reminder"); len(r) != 0 {
		t.Fatalf("reminders before their time: %+v", r)
	}
	// 24 hours before: 14:00 UTC, 11:00 on Saturday's clock.
	clock.set(time.Date(2027, 4, 3, 14, 0, 0, 0, time.UTC))
	waitFor(t, "the 24-hour reminder", func() bool { return len(w.templates("booking_reminder")) == 1 })
	r := w.templates("booking_reminder")[0]
	if r.To != strings.TrimPrefix(mariaPhone, "+") || r.Params[3] != "10:00" || !strings.Contains(r.Params[2], "4 April 2027") {
		t.Errorf("reminder %+v, want María's with Sunday 4 April 2027 and the local time 10:00", r)
	}
	w.probe(time.Date(2027, 5, 3, 12, 0, 0, 0, santiago))
	if n := len(w.templates("booking_reminder")); n != 1 {
		t.Errorf("%d reminders, want the one", n)
	}

	// A booking cancelled through /v3: its reminder never goes.
	b := w.book(time.Date(2027, 4, 6, 12, 0, 0, 0, santiago))
	waitFor(t, "the second confirmation", func() bool { return len(w.templates("booking_confirmation")) == 2 })
	w.call(http.MethodPatch, "/v3/bookings/"+strconv.FormatInt(b, 10)+"/cancel", `{}`, http.StatusNoContent)
	clock.set(time.Date(2027, 4, 5, 12, 0, 0, 0, santiago))
	w.probe(time.Date(2027, 5, 3, 13, 0, 0, 0, santiago))
	if n := len(w.templates("booking_reminder")); n != 1 {
		t.Errorf("%d reminders after the cancelled booking's time, want still 1", n)
	}
	var pending int
	w.d.Read.QueryRow(`SELECT count(*) FROM messages WHERE booking_id = ? AND kind = 'reminder' AND state = 'pending'`, b).Scan(&pending)
	if pending != 0 {
		t.Errorf("%d reminders of the cancelled booking still planned", pending)
	}
}
