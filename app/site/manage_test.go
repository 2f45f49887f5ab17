package site_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
)

// bookAt books a haircut with Ana at `at` and returns the manage path.
func (f *fixture) bookAt(at time.Time) string {
	f.t.Helper()
	return f.book(haircut, f.details(haircut, f.ana, at))
}

// Reschedule and cancel through the manage link, with booking.updated for each; after a
// reschedule every link of the booking shows the new time; a cancelled booking cannot be
// rescheduled through any link.
func TestRescheduleAndCancel(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	form := f.details(haircut, f.ana, at)
	first := f.book(haircut, form)
	second := f.book(haircut, form) // the same booking's second link

	res := f.get(first)
	wantBody(t, res, `data-testid="manage-reschedule"`, `data-testid="manage-cancel"`)
	res = f.get(first + "/reschedule?date=2026-04-02")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "Your booking is now on Tuesday, 31 March 2026, 10:00.", "Thursday, 2 April 2026")
	to := time.Date(2026, 4, 2, 14, 30, 0, 0, santiago)
	confirm := first + "/reschedule/confirm?" + url.Values{"start": {to.Format(time.RFC3339)}}.Encode()
	if !strings.Contains(res.body, strings.ReplaceAll(confirm, "&", "&amp;")) {
		t.Fatalf("the reschedule picker has no link to %s", confirm)
	}
	res = f.get(confirm)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "From: Tuesday, 31 March 2026, 10:00", "To: Thursday, 2 April 2026, 14:30")
	res = f.post(first+"/reschedule", url.Values{"start": {to.Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusSeeOther)
	if res.location() != first+"?done=rescheduled" {
		t.Errorf("after rescheduling, redirected to %q", res.location())
	}
	b := f.bookings()[0]
	if b.start != to.UnixMilli() || b.changes != 1 {
		t.Errorf("booking after reschedule: %+v, want start %v and one change", b, to)
	}
	wantBody(t, f.get(second), "Thursday, 2 April 2026, 14:30")
	if ev := f.events("booking.updated"); len(ev) != 1 || ev[0]["start_time"] != "2026-04-02T14:30:00-03:00" {
		t.Errorf("booking.updated after reschedule: %v", ev)
	}

	res = f.get(second + "/cancel")
	wantBody(t, res, "Do you want to cancel your booking on Thursday, 2 April 2026, 14:30?")
	res = f.post(second+"/cancel", nil)
	wantStatus(t, res, http.StatusSeeOther)
	if f.bookings()[0].status != 5 {
		t.Fatal("the booking is not cancelled")
	}
	if ev := f.events("booking.updated"); len(ev) != 2 {
		t.Errorf("%d booking.updated events, want 2 (reschedule, cancel)", len(ev))
	}
	for _, link := range []string{first, second} {
		res = f.get(link)
		wantBody(t, res, "This booking is cancelled")
		if strings.Contains(res.body, "manage-reschedule") {
			t.Errorf("%s offers to reschedule a cancelled booking", link)
		}
		res = f.post(link+"/reschedule", url.Values{"start": {to.Add(time.Hour).Format(time.RFC3339)}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, "This booking is cancelled, so it cannot be changed.")
	}
	if b := f.bookings()[0]; b.status != 5 || b.start != to.UnixMilli() {
		t.Errorf("a cancelled booking changed: %+v", b)
	}
}

// Each policy of the business refuses when it should, in plain words, before a click (no
// button) and on the POST itself; the booking is left as it was.
func TestManagePolicies(t *testing.T) {
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	to := url.Values{"start": {time.Date(2026, 4, 1, 10, 0, 0, 0, santiago).Format(time.RFC3339)}}
	cases := []struct {
		name                       string
		policy                     string
		now                        time.Time
		reschedule, cancel         bool
		wantReschedule, wantCancel string
	}{
		{"edits off", "can_edit = 0", start, false, true, "does not allow changing bookings online", ""},
		{"cancels off", "can_cancel = 0", start, true, false, "", "does not allow cancelling bookings online"},
		{"inside the lock", "edit_lock_min = 1440", at.Add(-23 * time.Hour), false, false,
			"less than 24 h before the appointment", "less than 24 h before the appointment"},
		{"outside the lock", "edit_lock_min = 1440", at.Add(-25 * time.Hour), true, true, "", ""},
		{"started", "edit_lock_min = 0", at.Add(time.Minute), false, false, "already started", "already started"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			manage := f.bookAt(at)
			f.exec(`UPDATE company SET ` + tc.policy)
			f.clock.set(tc.now)
			page := f.get(manage)
			if has := strings.Contains(page.body, "manage-reschedule"); has != tc.reschedule {
				t.Errorf("reschedule offered %v, want %v", has, tc.reschedule)
			}
			if has := strings.Contains(page.body, "manage-cancel\""); has != tc.cancel {
				t.Errorf("cancel offered %v, want %v", has, tc.cancel)
			}
			for _, want := range []string{tc.wantReschedule, tc.wantCancel} {
				if want != "" {
					wantBody(t, page, want)
				}
			}
			if !tc.reschedule {
				res := f.post(manage+"/reschedule", to)
				wantStatus(t, res, http.StatusUnprocessableEntity)
				wantBody(t, res, tc.wantReschedule)
			}
			if !tc.cancel {
				res := f.post(manage+"/cancel", nil)
				wantStatus(t, res, http.StatusUnprocessableEntity)
				wantBody(t, res, tc.wantCancel)
			}
			if b := f.bookings()[0]; b.status != 1 || b.start != at.UnixMilli() {
				t.Errorf("a refused change changed the booking: %+v", b)
			}
		})
	}

	t.Run("max changes", func(t *testing.T) {
		f := newFixture(t)
		manage := f.bookAt(at)
		f.exec(`UPDATE company SET max_changes = 1`)
		wantStatus(t, f.post(manage+"/reschedule", to), http.StatusSeeOther)
		page := f.get(manage)
		wantBody(t, page, "already been changed the most times allowed online (1)")
		res := f.post(manage+"/reschedule", url.Values{"start": {at.Format(time.RFC3339)}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if b := f.bookings()[0]; b.changes != 1 {
			t.Errorf("changes %d after a refused second reschedule, want 1", b.changes)
		}
	})
}

// A wrong, malformed or expired token is the plain 404 page, the same for all three.
func TestManageLinkNotFound(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	manage := f.bookAt(at)
	wantStatus(t, f.get(manage), http.StatusOK)
	token := strings.TrimPrefix(manage, "/book/manage/")
	wrong := "/book/manage/" + strings.Repeat("A", len(token))
	for _, path := range []string{wrong, "/book/manage/short", "/book/manage/" + token + "x", wrong + "/booking.ics", wrong + "/cancel"} {
		res := f.get(path)
		wantStatus(t, res, http.StatusNotFound)
		wantBody(t, res, "The link may be mistyped or may have expired.")
	}
	// A day after the appointment ends the link expires.
	f.clock.set(at.Add(30*time.Minute + 24*time.Hour - time.Second))
	wantStatus(t, f.get(manage), http.StatusOK)
	f.clock.set(at.Add(30*time.Minute + 24*time.Hour))
	expired := f.get(manage)
	wantStatus(t, expired, http.StatusNotFound)
	// But for the address itself, which the page's language links repeat.
	if strings.ReplaceAll(expired.body, manage, "LINK") != strings.ReplaceAll(f.get(wrong).body, wrong, "LINK") {
		t.Error("an expired link's page differs from a wrong one's")
	}
	wantStatus(t, f.post(manage+"/cancel", nil), http.StatusNotFound)
}

// The .ics download parses with an independent iCalendar library and gives the booked instant;
// after a reschedule the UID is the same and the SEQUENCE higher.
func TestCalendarFile(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 4, 4, 23, 30, 0, 0, santiago).Add(time.Hour) // the second 23:30 (UTC−4)
	if _, off := at.Zone(); off != -4*3600 {
		t.Fatalf("fixture: %v is not the UTC−4 23:30", at)
	}
	manage := f.bookAt(at)
	uid1, seq1, start1 := f.calendar(manage)
	if !start1.Equal(at) {
		t.Errorf("DTSTART %v, want the booked instant %v", start1.UTC(), at.UTC())
	}
	to := time.Date(2026, 4, 6, 9, 0, 0, 0, santiago)
	wantStatus(t, f.post(manage+"/reschedule", url.Values{"start": {to.Format(time.RFC3339)}}), http.StatusSeeOther)
	uid2, seq2, start2 := f.calendar(manage)
	if uid2 != uid1 || seq2 <= seq1 || !start2.Equal(to) {
		t.Errorf("after a reschedule: UID %q→%q, SEQUENCE %s→%s, DTSTART %v; want the same UID, a higher SEQUENCE, %v",
			uid1, uid2, seq1, seq2, start2, to)
	}
}

func (f *fixture) calendar(manage string) (uid, seq string, start time.Time) {
	f.t.Helper()
	res := f.get(manage + "/booking.ics")
	wantStatus(f.t, res, http.StatusOK)
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/calendar") {
		f.t.Errorf("Content-Type %q", ct)
	}
	cal, err := ics.ParseCalendar(bytes.NewReader([]byte(res.body)))
	if err != nil {
		f.t.Fatalf("parse: %v\n%s", err, res.body)
	}
	ev := cal.Events()
	if len(ev) != 1 {
		f.t.Fatalf("%d events", len(ev))
	}
	start, err = ev[0].GetStartAt()
	if err != nil {
		f.t.Fatal(err)
	}
	return ev[0].GetProperty(ics.ComponentPropertyUniqueId).Value, ev[0].GetProperty(ics.ComponentPropertySequence).Value, start
}

// A time taken while the customer was choosing brings back the times of the day they chose,
// weeks ahead, not those of today: they should not have to page forward to that day again.
func TestRescheduleTakenShowsThatDay(t *testing.T) {
	f := newFixture(t)
	link := f.bookAt(time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	taken := time.Date(2026, 4, 28, 15, 0, 0, 0, santiago) // four weeks ahead: beyond the first fortnight
	f.book(haircut, f.details(haircut, f.ana, taken))      // someone else gets it first

	res := f.post(link+"/reschedule", url.Values{"start": {taken.Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, "Sorry, that time was just taken", `data-testid="times-date">Tuesday, 28 April 2026<`)
	free := link + "/reschedule/confirm?" + url.Values{"start": {taken.Add(30 * time.Minute).Format(time.RFC3339)}}.Encode()
	if !strings.Contains(res.body, strings.ReplaceAll(free, "&", "&amp;")) {
		t.Errorf("the answer offers no other time of 28 April (%s)", free)
	}
}

// The reschedule picker opens on the booking's own day — three weeks ahead here, beyond the
// first fortnight — not on the first free day from today; a day asked for, or another
// fortnight paged to, still wins.
func TestRescheduleOpensOnBookingDay(t *testing.T) {
	f := newFixture(t)
	link := f.bookAt(time.Date(2026, 4, 20, 10, 0, 0, 0, santiago))
	res := f.get(link + "/reschedule")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="times-date">Monday, 20 April 2026<`, "20 Apr 2026 – 3 May 2026")
	wantBody(t, f.get(link+"/reschedule?date=2026-04-02"), `data-testid="times-date">Thursday, 2 April 2026<`)
	wantBody(t, f.get(link+"/reschedule?from=2026-03-30"), `data-testid="times-date">Monday, 30 March 2026<`)

	// With nothing free on the booking's day any more (Ana is away all of it), the picker opens
	// on the first day with a free time after it.
	away := time.Date(2026, 4, 20, 0, 0, 0, 0, santiago)
	f.exec(`INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (?, ?, ?)`, f.ana, away.UnixMilli(), away.AddDate(0, 0, 1).UnixMilli())
	wantBody(t, f.get(link+"/reschedule"), `data-testid="times-date">Tuesday, 21 April 2026<`)
}

// A booking made with "anyone available" names the provider it got; moving it keeps that
// provider when they are free at the new time, and otherwise the confirmation says before the
// click who it will be with — the form carries that person, the manage page names them after,
// and if they are taken meanwhile nothing moves to someone else unannounced.
func TestRescheduleAnyoneSaysWho(t *testing.T) {
	f := newFixture(t)
	first := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	res := f.post("/book/1/1/details", f.details(haircut, 0, first))
	wantStatus(t, res, http.StatusSeeOther)
	link := strings.TrimSuffix(res.location(), "?done=booked")
	wantBody(t, f.get(res.location()), "You are booked with Ana.")

	busy := time.Date(2026, 4, 2, 14, 30, 0, 0, santiago)
	f.bookAt(busy) // Ana is taken then
	confirm := f.get(link + "/reschedule/confirm?" + url.Values{"start": {busy.Format(time.RFC3339)}}.Encode())
	wantStatus(t, confirm, http.StatusOK)
	wantBody(t, confirm, "<dt>With</dt><dd>Bruno</dd>", "Ana is not free at that time, so your booking will be with Bruno.",
		`name="provider" value="`+strconv.FormatInt(f.bruno, 10)+`"`)
	res = f.post(link+"/reschedule", url.Values{"start": {busy.Format(time.RFC3339)}, "provider": {strconv.FormatInt(f.bruno, 10)}})
	wantStatus(t, res, http.StatusSeeOther)
	wantBody(t, f.get(res.location()), "Your booking has been moved to Thursday, 2 April 2026, 14:30, with Bruno.")
	if b := f.bookings()[0]; b.provider != f.bruno || b.start != busy.UnixMilli() {
		t.Errorf("after the move the booking is %+v, want Bruno at 14:30", b)
	}

	// Bruno is free at 15:00 too: he stays, and nothing says otherwise.
	later := busy.Add(30 * time.Minute)
	confirm = f.get(link + "/reschedule/confirm?" + url.Values{"start": {later.Format(time.RFC3339)}}.Encode())
	wantBody(t, confirm, "<dt>With</dt><dd>Bruno</dd>")
	if strings.Contains(confirm.body, `data-testid="provider-note"`) {
		t.Error("the confirmation announces a change of provider that is not one")
	}

	// Told "with Ana", the customer is not moved to someone else when Ana is taken meanwhile.
	f.exec(`UPDATE provider_hours SET close_min = 600 WHERE provider_id = ? AND day_id = 5`, f.bruno) // Fridays until 10:00
	friday := time.Date(2026, 4, 3, 11, 0, 0, 0, santiago)
	confirm = f.get(link + "/reschedule/confirm?" + url.Values{"start": {friday.Format(time.RFC3339)}}.Encode())
	wantBody(t, confirm, "Bruno is not free at that time, so your booking will be with Ana.")
	f.exec(`UPDATE provider_hours SET close_min = 1440 WHERE provider_id = ? AND day_id = 5`, f.bruno)
	f.bookAt(friday) // Ana goes to someone else; Bruno is free again
	res = f.post(link+"/reschedule", url.Values{"start": {friday.Format(time.RFC3339)}, "provider": {strconv.FormatInt(f.ana, 10)}})
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, "Sorry, that time was just taken")
	if b := f.bookings()[0]; b.provider != f.bruno || b.start != busy.UnixMilli() {
		t.Errorf("a refused move changed the booking: %+v", b)
	}
}

// "Please book again" leads somewhere: a cancelled booking's page, and the refusal to change
// it, link to the booking flow of the same service at the same location — while the site
// offers it; switched off, there is no link to a page that would not work.
func TestCancelledSaysWhereToBookAgain(t *testing.T) {
	f := newFixture(t)
	link := f.bookAt(time.Date(2026, 3, 31, 10, 0, 0, 0, santiago))
	wantStatus(t, f.post(link+"/cancel", nil), http.StatusSeeOther)
	again := `<a class="button" href="/book/1/1" data-testid="book-again">Book again</a>`
	wantBody(t, f.get(link), "please book again", again)
	res := f.post(link+"/reschedule", url.Values{"start": {time.Date(2026, 4, 1, 10, 0, 0, 0, santiago).Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Please book again.", again)
	wantStatus(t, f.get("/book/1/1"), http.StatusOK) // the link works

	f.exec(`UPDATE company SET language = 'es'`)
	wantBody(t, f.get(link), `data-testid="book-again">Reservar de nuevo</a>`)

	f.exec(`UPDATE site_settings SET enabled = 0, updated_at = updated_at + 1`)
	if strings.Contains(f.get(link).body, "book-again") {
		t.Error("with the site off, the cancelled booking links to a booking page that is not there")
	}
}
