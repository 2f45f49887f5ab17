package site_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A form submitted twice — one after the other, or both at once — books once; every submit
// lands on a manage page of that one booking.
func TestDoubleSubmitBooksOnce(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 11, 0, 0, 0, santiago)
	form := f.details(haircut, 0, at)
	first := f.book(haircut, form)
	second := f.book(haircut, form)
	if first == second {
		t.Error("the second submit got the same manage token; want a fresh link to the same booking")
	}
	if n := len(f.bookings()); n != 1 {
		t.Fatalf("%d bookings after a double submit, want 1", n)
	}
	for _, m := range []string{first, second} {
		wantBody(t, f.get(m), "Tuesday, 31 March 2026, 11:00")
	}

	// Eight submits of one fresh form at once.
	at = time.Date(2026, 3, 31, 12, 0, 0, 0, santiago)
	form = f.details(haircut, f.bruno, at)
	var wg sync.WaitGroup
	statuses := make([]int, 8)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.post("/book/1/1/details", form).status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusSeeOther {
			t.Errorf("concurrent submit %d: status %d, want 303 to the one booking", i, s)
		}
	}
	if n := f.count(`SELECT count(*) FROM bookings WHERE start_at = ?`, at.UnixMilli()); n != 1 {
		t.Errorf("%d bookings at %v after concurrent submits of one form, want 1", n, at)
	}
}

// Two visitors submit the same time with the same provider: one is booked; the other gets 409
// with "just taken", their details kept, and the times still free that day to choose from —
// the chosen time not among them. The database holds one booking. Many at once: the same.
func TestJustTaken(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 15, 0, 0, 0, santiago)
	first := f.details(haircut, f.ana, at)
	second := f.details(haircut, f.ana, at)
	second.Set("first_name", "Diego")
	f.book(haircut, first)
	res := f.post("/book/1/1/details", second)
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, "Sorry, that time was just taken by someone else.", `value="Diego"`, `data-testid="alternative"`)
	if strings.Contains(res.body, `value="`+at.Format(time.RFC3339)+`"`) {
		t.Error("the taken time is offered again")
	}
	if !strings.Contains(res.body, `value="`+at.Add(30*time.Minute).Format(time.RFC3339)+`"`) {
		t.Error("the next free time of the day is not offered")
	}
	if n := len(f.bookings()); n != 1 {
		t.Fatalf("%d bookings, want 1", n)
	}
	// Opening the taken time's link leads back to that day's times, with a word about it.
	res = f.get(detailsPath(haircut, f.ana, at))
	wantStatus(t, res, http.StatusFound)
	res = f.get(res.location())
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, "that time was just taken", "Tuesday, 31 March 2026")
	if strings.Contains(res.body, `data-start="`+at.Format(time.RFC3339)+`"`) {
		t.Error("the times page still offers the taken time")
	}
	// Choosing another time in the same form books it.
	second.Set("start", at.Add(30*time.Minute).Format(time.RFC3339))
	f.book(haircut, second)

	// Ten visitors, ten forms, one time, at once.
	at = time.Date(2026, 4, 1, 9, 0, 0, 0, santiago)
	forms := make([]url.Values, 10)
	for i := range forms {
		forms[i] = f.details(haircut, f.bruno, at)
		forms[i].Set("email", "visitor"+strconv.Itoa(i)+"@example.com")
		forms[i].Set("phone", "+5696100000"+strconv.Itoa(i))
	}
	var wg sync.WaitGroup
	results := make([]response, len(forms))
	for i := range forms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f.post("/book/1/1/details", forms[i])
		}()
	}
	wg.Wait()
	won := 0
	for _, r := range results {
		switch r.status {
		case http.StatusSeeOther:
			won++
		case http.StatusConflict:
			if !strings.Contains(r.body, "just taken") {
				t.Errorf("a loser's page does not say the time was just taken")
			}
		default:
			t.Errorf("status %d, want 303 or 409", r.status)
		}
	}
	if won != 1 {
		t.Errorf("%d visitors booked the same time, want 1", won)
	}
	if n := f.count(`SELECT count(*) FROM bookings WHERE provider_id = ? AND start_at = ?`, f.bruno, at.UnixMilli()); n != 1 {
		t.Errorf("%d bookings of Bruno at %v, want 1", n, at)
	}
	// The losers created no clients: a refused booking leaves no trace.
	if n := f.count(`SELECT count(*) FROM clients WHERE email LIKE 'visitor%'`); n != 1 {
		t.Errorf("%d visitor clients, want only the winner's", n)
	}
}

// With anyone available, a time one provider lost is still booked with the other.
func TestAnyoneAvailableFallsBack(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 16, 0, 0, 0, santiago)
	f.book(haircut, f.details(haircut, 0, at))
	f.book(haircut, f.details(haircut, 0, at))
	got := f.bookings()
	if len(got) != 2 || got[0].provider == got[1].provider {
		t.Fatalf("two bookings of anyone at one time: %+v, want one each for Ana and Bruno", got)
	}
	// Now both are taken: the third visitor hears it was just taken.
	res := f.post("/book/1/1/details", f.detailsForm(at))
	wantStatus(t, res, http.StatusConflict)
}

// detailsForm is a form for anyone at `at` built without opening the page (which would already
// say the time is gone).
func (f *fixture) detailsForm(at time.Time) url.Values {
	form := f.details(haircut, 0, at.Add(-time.Hour))
	form.Set("start", at.Format(time.RFC3339))
	return form
}
