package site_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"frontdesk/app/booking"
)

var dayOffRE = regexp.MustCompile(`(?s)<span class="day off" data-testid="day-off"><span class="sr-only">([^<]*)</span>.*?data-testid="day-why">([^<]*)</small>`)

// offDays are the picker's days with nothing to book: spoken label → the word shown.
func offDays(body string) map[string]string {
	out := map[string]string{}
	for _, m := range dayOffRE.FindAllStringSubmatch(body, -1) {
		out[m[1]] = m[2]
	}
	return out
}

func wantOffDay(t *testing.T, body, spoken, short string) {
	t.Helper()
	if got, ok := offDays(body)[spoken]; !ok || got != short {
		t.Errorf("no day %q marked %q among the days with nothing free: %q", spoken, short, offDays(body))
	}
}

// A day with nothing to book says why: "closed" when nothing could have been booked (the
// location's holiday), "full" only when there were times and they are all booked, and for a
// class "no sessions" on a day without one — in English and Spanish, on screen and in the
// spoken label.
func TestDaysSayWhyNothingIsFree(t *testing.T) {
	f := newFixture(t)
	f.exec(`INSERT INTO location_closures (location_id, date) VALUES (1, '2026-04-01')`)
	f.exec(`UPDATE provider_hours SET open_min = 540, close_min = 600 WHERE provider_id = ? AND day_id = 4`, f.ana) // Thursdays 09:00–10:00
	for _, at := range []time.Time{time.Date(2026, 4, 2, 9, 0, 0, 0, santiago), time.Date(2026, 4, 2, 9, 30, 0, 0, santiago)} {
		f.bookAt(at)
	}
	times := "/book/1/1/times?provider=" + strconv.FormatInt(f.ana, 10) + "&from=2026-03-30"
	res := f.get(times)
	wantStatus(t, res, http.StatusOK)
	wantOffDay(t, res.body, "Wednesday, 1 April 2026: closed", "closed")
	wantOffDay(t, res.body, "Thursday, 2 April 2026: fully booked", "full")
	if n := len(offDays(res.body)); n != 2 {
		t.Errorf("%d days with nothing free, want 2: %q", n, offDays(res.body))
	}
	wantBody(t, res, `aria-label="Thursday, 9 April 2026: 2 free times"`)

	f.exec(`UPDATE company SET language = 'es'`)
	res = f.get(times)
	wantOffDay(t, res.body, "miércoles, 1 de abril de 2026: cerrado", "cerrado")
	wantOffDay(t, res.body, "jueves, 2 de abril de 2026: todo reservado", "lleno")
	f.exec(`UPDATE company SET language = 'en'`)
}

// A class: a day without a session has "no sessions"; in a reschedule, which lists no full
// session, a day whose only session is full is "full".
func TestClassDaysSayWhyNothingIsFree(t *testing.T) {
	f, morning, _ := classFixture(t)
	wednesday := time.Date(2026, 4, 1, 10, 0, 0, 0, santiago)
	if _, err := booking.CreateSession(context.Background(), f.db, f.clock.now(), booking.SessionInput{
		LocationID: centro, ServiceID: yoga, ProviderID: f.ana, Start: wednesday,
	}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Pia", "Rut", "Sol"} {
		f.seatFor(name, wednesday)
	}
	res := f.get("/book/1/5/times?provider=0&from=2026-03-30")
	wantStatus(t, res, http.StatusOK)
	wantOffDay(t, res.body, "Thursday, 2 April 2026: no sessions", "no sessions")
	wantBody(t, res, `aria-label="Wednesday, 1 April 2026: 1 session"`) // full, but its waitlist is there

	manage := f.book(yoga, f.details(yoga, f.ana, morning))
	res = f.get(manage + "/reschedule?from=2026-03-30")
	wantStatus(t, res, http.StatusOK)
	wantOffDay(t, res.body, "Wednesday, 1 April 2026: fully booked", "full")
	wantOffDay(t, res.body, "Thursday, 2 April 2026: no sessions", "no sessions")

	f.exec(`UPDATE company SET language = 'es'`)
	wantOffDay(t, f.get(manage+"/reschedule?from=2026-03-30").body, "jueves, 2 de abril de 2026: sin sesiones", "sin sesiones")
}
