package site_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/booking"
)

// Classes and packs on the booking site (docs/booking-site.md, docs/classes.md).

const (
	yoga     = 5 // a class of 3 seats, 60 minutes, taught by Ana
	massage5 = 6 // Massage pack: sold in packs of 5 sessions
)

// classFixture adds Yoga with sessions on Tuesday 31 March 2026 at 10:00 and 18:00 (Ana), and
// a pack service.
func classFixture(t *testing.T) (*fixture, time.Time, time.Time) {
	t.Helper()
	f := newFixture(t)
	ms := start.UnixMilli()
	f.exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, capacity, online_payment_mode, online_booking, created_at, updated_at)
		VALUES (5, 's5', 'Yoga', 800000, 60, 3, 'NOT_AVAILABLE', 1, ?, ?)`, ms, ms)
	f.exec(`INSERT INTO services (id, uuid, name, price_cents, duration_min, session_count, online_payment_mode, online_booking, created_at, updated_at)
		VALUES (6, 's6', 'Massage pack', 2000000, 45, 5, 'NOT_AVAILABLE', 1, ?, ?)`, ms, ms)
	f.exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (5, ?), (6, ?)`, f.ana, f.ana)
	morning := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	evening := time.Date(2026, 3, 31, 18, 0, 0, 0, santiago)
	for _, at := range []time.Time{morning, evening} {
		if _, err := booking.CreateSession(context.Background(), f.db, f.clock.now(), booking.SessionInput{
			LocationID: centro, ServiceID: yoga, ProviderID: f.ana, Start: at,
		}); err != nil {
			t.Fatal(err)
		}
	}
	return f, morning, evening
}

// seatFor books a seat for a new client (through the booking rules, as the admin would).
func (f *fixture) seatFor(name string, at time.Time) int64 {
	f.t.Helper()
	ms := start.UnixMilli()
	client := f.exec(`INSERT INTO clients (first_name, email, created_at, updated_at) VALUES (?, ?, ?, ?)`, name, strings.ToLower(name)+"@example.com", ms, ms)
	v, err := booking.Create(context.Background(), f.db, f.clock.now(), booking.NewBooking{
		LocationID: centro, ServiceID: yoga, ProviderID: f.ana, ClientID: client, StatusID: booking.StatusConfirmed,
		Start: at, Source: booking.SourceAdmin,
	})
	if err != nil {
		f.t.Fatalf("seat for %s: %v", name, err)
	}
	return v.Booking.ID
}

var timeRE = regexp.MustCompile(`(?s)<a class="time session[^"]*" href="([^"]+)"[^>]*data-start="([^"]+)">(.*?)</a>`)

// sessionTimes are the day's session buttons: start → (link, text).
func sessionTimes(t *testing.T, body string) map[string][2]string {
	t.Helper()
	out := map[string][2]string{}
	for _, m := range timeRE.FindAllStringSubmatch(body, -1) {
		out[m[2]] = [2]string{strings.ReplaceAll(m[1], "&amp;", "&"), m[3]}
	}
	return out
}

// A class is offered as its sessions — not the slot grid — each with its seats left in the
// catalog's plural forms (English and Spanish); a full session leads to its waitlist.
func TestClassOfferedAsSessions(t *testing.T) {
	f, morning, evening := classFixture(t)
	res := f.get("/book/1/5")
	wantStatus(t, res, http.StatusFound)
	if !strings.Contains(res.location(), "/book/1/5/times?provider=0") {
		t.Fatalf("the class's provider step led to %q, want every teacher's sessions", res.location())
	}
	times := f.get("/book/1/5/times?provider=0&date=2026-03-31")
	wantStatus(t, times, http.StatusOK)
	got := sessionTimes(t, times.body)
	if len(got) != 2 || strings.Count(times.body, `data-testid="time"`) != 2 {
		t.Fatalf("times of the class: %v, want its two sessions only:\n%s", got, times.body)
	}
	m := got[morning.Format(time.RFC3339)]
	if !strings.Contains(m[1], "3 seats left") || !strings.Contains(m[1], "Ana") ||
		!strings.HasPrefix(m[0], "/book/1/5/details?") || !strings.Contains(m[0], "provider="+strconv.FormatInt(f.ana, 10)) {
		t.Errorf("morning session %q, want Ana's details link and 3 seats left", m)
	}
	wantBody(t, times, `aria-label="Tuesday, 31 March 2026, 10:00, Ana, 3 seats left"`, "Tuesday, 31 March 2026: 2 sessions")
	if strings.Contains(times.body, "T10:30:00") {
		t.Error("a slot-grid time is offered for a class")
	}

	f.seatFor("Pia", morning)
	f.seatFor("Rut", morning)
	got = sessionTimes(t, f.get("/book/1/5/times?provider=0&date=2026-03-31").body)
	if m := got[morning.Format(time.RFC3339)]; !strings.Contains(m[1], "1 seat left") {
		t.Errorf("morning session after two bookings %q, want 1 seat left", m[1])
	}
	f.exec(`UPDATE company SET language = 'es'`)
	got = sessionTimes(t, f.get("/book/1/5/times?provider=0&date=2026-03-31").body)
	if m := got[morning.Format(time.RFC3339)]; !strings.Contains(m[1], "Queda 1 cupo") {
		t.Errorf("Spanish, one seat: %q, want Queda 1 cupo", m[1])
	}
	if m := got[evening.Format(time.RFC3339)]; !strings.Contains(m[1], "Quedan 3 cupos") {
		t.Errorf("Spanish, three seats: %q, want Quedan 3 cupos", m[1])
	}
	f.seatFor("Sol", morning)
	got = sessionTimes(t, f.get("/book/1/5/times?provider=0&date=2026-03-31").body)
	m = got[morning.Format(time.RFC3339)]
	if !strings.Contains(m[1], "Completa") || !strings.HasPrefix(m[0], "/book/1/5/waitlist?") {
		t.Errorf("full session %q, want its waitlist", m)
	}
}

// Booking a session books a seat in it (booking.Create); the details step names the seats left.
func TestClassBookingTakesSeat(t *testing.T) {
	f, morning, _ := classFixture(t)
	details := f.get(detailsPath(yoga, f.ana, morning))
	wantStatus(t, details, http.StatusOK)
	wantBody(t, details, `data-testid="site-seats">3 seats left<`)
	manage := f.book(yoga, f.details(yoga, f.ana, morning))
	if n := f.count(`SELECT count(*) FROM bookings b JOIN class_sessions s ON s.id = b.session_id
		WHERE s.start_at = ? AND b.source = 'online'`, morning.UnixMilli()); n != 1 {
		t.Fatalf("%d online seats in the session, want 1", n)
	}
	wantBody(t, f.get(manage), "Yoga", "Tuesday, 31 March 2026, 10:00")
}

// The last seat goes while the visitor types: their submit gets 409 with a clear page — the
// details kept, turned into the session's waitlist form, and the day's sessions that still have
// a seat — never an error page; nothing is booked.
func TestClassFullWhileTyping(t *testing.T) {
	f, morning, evening := classFixture(t)
	f.seatFor("Pia", morning)
	f.seatFor("Rut", morning)
	form := f.details(yoga, f.ana, morning)
	f.seatFor("Sol", morning) // the last seat, taken meanwhile
	res := f.post("/book/1/5/details", form)
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, `data-testid="class-full"`, "the last seat of this session was just taken",
		`action="/book/1/5/waitlist"`, `value="Camila"`, `data-testid="waitlist-note"`, "Join the waitlist",
		`data-testid="other-session"`, "/book/1/5/details?provider="+strconv.FormatInt(f.ana, 10)+"&amp;start="+url.QueryEscape(evening.Format(time.RFC3339)))
	if n := f.count(`SELECT count(*) FROM bookings WHERE source = 'online'`); n != 0 {
		t.Errorf("%d online bookings, want none", n)
	}
	// The same form, now a waitlist join: the typed details are enough.
	join := f.post("/book/1/5/waitlist", form)
	wantStatus(t, join, http.StatusSeeOther)
	if !strings.HasPrefix(join.location(), "/book/waitlist/") {
		t.Fatalf("joined, redirected to %q", join.location())
	}
	// Opening the details link of the full session leads to its waitlist form.
	res = f.get(detailsPath(yoga, f.ana, morning))
	wantStatus(t, res, http.StatusFound)
	if !strings.HasPrefix(res.location(), "/book/1/5/waitlist?") {
		t.Errorf("details of a full session led to %q, want its waitlist", res.location())
	}
}

var waitlistRE = regexp.MustCompile(`^/book/waitlist/[A-Za-z0-9_-]{43}`)

// joinAs fills and submits the waitlist form of the session at `at` as a new visitor and
// returns their link's path.
func (f *fixture) joinAs(first, email string, at time.Time) (string, url.Values) {
	f.t.Helper()
	page := f.get("/book/1/5/waitlist?" + url.Values{"provider": {strconv.FormatInt(f.ana, 10)}, "start": {at.Format(time.RFC3339)}}.Encode())
	wantStatus(f.t, page, http.StatusOK)
	wantBody(f.t, page, `data-testid="waitlist-note"`, "If a seat frees up until 2 h before the class")
	m := nonceRE.FindStringSubmatch(page.body)
	if m == nil {
		f.t.Fatalf("no nonce on the waitlist form:\n%s", page.body)
	}
	form := url.Values{
		"nonce": {m[1]}, "provider": {strconv.FormatInt(f.ana, 10)}, "start": {at.Format(time.RFC3339)},
		"first_name": {first}, "last_name": {"Test"}, "email": {email}, "phone": {"+56 9 6111 " + strconv.Itoa(1000+int(first[0]))},
		"attr_" + strconv.FormatInt(f.allerg, 10): {"none"},
	}
	res := f.post("/book/1/5/waitlist", form)
	wantStatus(f.t, res, http.StatusSeeOther)
	path := waitlistRE.FindString(res.location())
	if path == "" {
		f.t.Fatalf("joined, redirected to %q, want a waitlist link", res.location())
	}
	return path, form
}

// A full session's waitlist: visitors join with the details form and get a personal link that
// shows their place in the queue; a repeated submit keeps one place; leaving moves the next one
// up; a freed seat goes to the first waiting, whose link then says so. A wrong token is a 404.
func TestWaitlistOnSite(t *testing.T) {
	f, morning, _ := classFixture(t)
	f.seatFor("Pia", morning)
	seat := f.seatFor("Rut", morning)
	f.seatFor("Sol", morning)

	first, form := f.joinAs("Elena", "elena@example.com", morning)
	page := f.get(first + "?done=joined")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, "You are on the waitlist.", "You are next in the queue.", `data-testid="waitlist-url">https://desk.example.com/book/waitlist/`,
		"Yoga", "Tuesday, 31 March 2026, 10:00", `data-testid="waitlist-leave"`)
	if page.header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("a waitlist page must not leak its token as a referrer")
	}
	second, _ := f.joinAs("Marta", "marta@example.com", morning)
	wantBody(t, f.get(second), "You are number 2 in the queue.")
	f.exec(`UPDATE company SET language = 'es'`)
	wantBody(t, f.get(second), "Eres el número 2 en la fila.", "Salir de la lista de espera", "Tu lugar en la lista de espera")
	f.exec(`UPDATE company SET language = 'en'`)

	again := f.post("/book/1/5/waitlist", form) // the same form again: the same place
	wantStatus(t, again, http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM waitlist_entries WHERE status = 'waiting'`); n != 2 {
		t.Fatalf("%d waiting after a repeated submit, want 2", n)
	}
	wantBody(t, f.get(waitlistRE.FindString(again.location())), "You are next in the queue.")

	leave := f.post(first+"/leave", url.Values{"confirm": {"1"}})
	wantStatus(t, leave, http.StatusSeeOther)
	wantBody(t, f.get(first), "You left the waitlist", "status-left")
	if strings.Contains(f.get(first).body, `data-testid="waitlist-leave"`) {
		t.Error("a place already left still offers to leave")
	}
	wantBody(t, f.get(second), "You are next in the queue.")

	if err := booking.Cancel(context.Background(), f.db, f.clock.now(), seat, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	wantBody(t, f.get(second), "You got a seat: you are booked", "status-booked", `data-testid="waitlist-booking"`)
	open := f.post(second+"/booking", url.Values{})
	wantStatus(t, open, http.StatusSeeOther)
	if !manageTokenRE.MatchString(open.location()) {
		t.Fatalf("see my booking led to %q, want a manage link", open.location())
	}
	wantBody(t, f.get(open.location()), "Yoga", "Tuesday, 31 March 2026, 10:00", `data-testid="manage-cancel"`)
	wantStatus(t, f.post(first+"/booking", url.Values{}), http.StatusNotFound) // left: no booking
	if n := f.count(`SELECT count(*) FROM bookings b JOIN clients c ON c.id = b.client_id
		WHERE c.email = 'marta@example.com' AND b.status_id = 1`); n != 1 {
		t.Errorf("Marta has %d bookings after the seat freed, want 1", n)
	}

	wantStatus(t, f.get("/book/waitlist/"+strings.Repeat("A", 43)), http.StatusNotFound)
	wantStatus(t, f.get("/book/waitlist/short"), http.StatusNotFound)
	f.clock.set(morning.Add(26 * time.Hour)) // a day after the session ended
	wantStatus(t, f.get(second), http.StatusNotFound)
}

// Joining is refused while a seat is free: the same details come back as a booking of it.
func TestWaitlistSeatFreeBooksInstead(t *testing.T) {
	f, morning, _ := classFixture(t)
	f.seatFor("Pia", morning)
	f.seatFor("Rut", morning)
	last := f.seatFor("Sol", morning)
	page := f.get("/book/1/5/waitlist?" + url.Values{"provider": {strconv.FormatInt(f.ana, 10)}, "start": {morning.Format(time.RFC3339)}}.Encode())
	m := nonceRE.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("no waitlist form:\n%s", page.body)
	}
	if err := booking.Cancel(context.Background(), f.db, f.clock.now(), last, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	res := f.post("/book/1/5/waitlist", url.Values{
		"nonce": {m[1]}, "provider": {strconv.FormatInt(f.ana, 10)}, "start": {morning.Format(time.RFC3339)},
		"first_name": {"Elena"}, "last_name": {"Test"}, "email": {"elena@example.com"}, "phone": {"+56 9 2222 3333"},
		"attr_" + strconv.FormatInt(f.allerg, 10): {"none"},
	})
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, "a seat is free again", `action="/book/1/5/details"`, `value="Elena"`, "Confirm booking")
	if n := f.count(`SELECT count(*) FROM waitlist_entries`); n != 0 {
		t.Errorf("%d waitlist entries, want none", n)
	}
}

// A client who holds a pack of the service books it on the site: the booking uses the pack
// (booking.Create's default) and the confirmation says so instead of showing a price. Without
// a pack the price shows.
func TestPackBookingOnSite(t *testing.T) {
	f, _, _ := classFixture(t)
	ms := start.UnixMilli()
	client := f.exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('Camila', 'Rojas', 'camila.rojas@example.com', ?, ?)`, ms, ms)
	if _, err := booking.CreditPack(context.Background(), f.db, f.clock.now(), booking.PackCredit{ClientID: client, ServiceID: massage5, PriceCents: 9000000}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 31, 12, 0, 0, 0, santiago)
	details := f.get(detailsPath(massage5, f.ana, at))
	wantBody(t, details, `data-testid="pack-note"`, "pack of 5 sessions")
	manage := f.book(massage5, f.details(massage5, f.ana, at))
	if n := f.count(`SELECT count(*) FROM bookings WHERE pack_id IS NOT NULL AND client_id = ? AND price_cents = 0`, client); n != 1 {
		t.Fatalf("%d bookings paid with the pack, want 1", n)
	}
	page := f.get(manage + "?done=booked")
	wantBody(t, page, `data-testid="site-pack">Paid with your pack: 4 of 5 sessions left<`)
	if strings.Contains(page.body, "$20,000") || strings.Contains(page.body, "Free") {
		t.Errorf("the confirmation of a pack booking shows a price:\n%s", page.body)
	}

	// Someone without a pack pays the price.
	form := f.details(massage5, f.ana, at.Add(2*time.Hour))
	form.Set("email", "nopack@example.com")
	form.Set("phone", "+56 9 5555 6666")
	page = f.get(f.book(massage5, form))
	if strings.Contains(page.body, `data-testid="site-pack"`) || !strings.Contains(page.body, "$20,000") {
		t.Errorf("a booking without a pack: want its price, no pack line:\n%s", page.body)
	}
}

// A seat booked on the site moves to another session of the class through its manage link;
// a full session is not offered there, and one that fills meanwhile is "just taken", not an
// error page.
func TestClassRescheduleOnSite(t *testing.T) {
	f, morning, evening := classFixture(t)
	manage := f.book(yoga, f.details(yoga, f.ana, morning))
	page := f.get(manage + "/reschedule?date=2026-03-31")
	wantStatus(t, page, http.StatusOK)
	got := sessionTimes(t, page.body)
	if m, ok := got[evening.Format(time.RFC3339)]; !ok || !strings.Contains(m[1], "3 seats left") {
		t.Fatalf("reschedule offers %v, want the evening session with 3 seats", got)
	}
	f.seatFor("Pia", evening)
	f.seatFor("Rut", evening)
	f.seatFor("Sol", evening) // full now
	res := f.post(manage+"/reschedule", url.Values{"start": {evening.Format(time.RFC3339)}})
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, `data-testid="site-notice"`)
	if _, ok := sessionTimes(t, f.get(manage+"/reschedule?date=2026-03-31").body)[evening.Format(time.RFC3339)]; ok {
		t.Error("a full session is offered to move into")
	}
}

// Eight visitors submit for the last two seats of a session at once: two are booked, the other
// six get the class-full page (409) with the waitlist form — none an error — and the session
// holds its capacity.
func TestClassLastSeatsRace(t *testing.T) {
	f, morning, _ := classFixture(t)
	f.seatFor("Pia", morning)
	forms := make([]url.Values, 8)
	for i := range forms {
		forms[i] = f.details(yoga, f.ana, morning)
		forms[i].Set("email", "racer"+strconv.Itoa(i)+"@example.com")
		forms[i].Set("phone", "+56 9 6100 000"+strconv.Itoa(i))
	}
	statuses := make([]int, len(forms))
	bodies := make([]string, len(forms))
	var wg sync.WaitGroup
	for i := range forms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.post("/book/1/5/details", forms[i])
			statuses[i], bodies[i] = res.status, res.body
		}()
	}
	wg.Wait()
	booked := 0
	for i, s := range statuses {
		switch {
		case s == http.StatusSeeOther:
			booked++
		case s == http.StatusConflict && strings.Contains(bodies[i], `data-testid="class-full"`) && strings.Contains(bodies[i], `action="/book/1/5/waitlist"`):
		default:
			t.Errorf("racer %d: status %d, want 303 or the class-full page:\n%.2000s", i, s, bodies[i])
		}
	}
	if booked != 2 {
		t.Errorf("%d racers booked, want 2", booked)
	}
	if n := f.count(`SELECT count(*) FROM bookings WHERE service_id = 5 AND status_id <> 5`); n != 3 {
		t.Errorf("%d seats taken, want the capacity 3", n)
	}
}

// Leaving a waitlist asks first, without JavaScript: the place's page links to a page with the
// question, whose form alone leaves; a POST without its answer leaves nothing and is shown the
// question. Once left (or past), the question's page goes back to the place's.
func TestLeaveWaitlistAsksFirst(t *testing.T) {
	f, morning, _ := classFixture(t)
	for _, name := range []string{"Pia", "Rut", "Sol"} {
		f.seatFor(name, morning)
	}
	link, _ := f.joinAs("Elena", "elena@example.com", morning)
	page := f.get(link)
	wantBody(t, page, `<a class="button secondary" href="`+link+`/leave" data-testid="waitlist-leave">Leave the waitlist</a>`)
	if strings.Contains(page.body, `method="post" action="`+link+`/leave"`) {
		t.Error("the place's page leaves with one click, without asking")
	}

	ask := f.get(link + "/leave")
	wantStatus(t, ask, http.StatusOK)
	wantBody(t, ask, "Leave the waitlist?", "You are next in the queue.",
		"Do you want to leave the waitlist of the session on Tuesday, 31 March 2026, 10:00?",
		`<form method="post" action="`+link+`/leave"`, `name="confirm" value="1"`, `data-testid="keep-place"`)
	if ask.header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("the question's page must not leak the token as a referrer")
	}

	res := f.post(link+"/leave", url.Values{})
	wantStatus(t, res, http.StatusSeeOther)
	if res.location() != link+"/leave" {
		t.Errorf("a POST without the answer went to %q, want the question", res.location())
	}
	if n := f.count(`SELECT count(*) FROM waitlist_entries WHERE status = 'waiting'`); n != 1 {
		t.Fatalf("a POST without the answer left the waitlist (%d waiting)", n)
	}

	wantStatus(t, f.post(link+"/leave", url.Values{"confirm": {"1"}}), http.StatusSeeOther)
	if n := f.count(`SELECT count(*) FROM waitlist_entries WHERE status = 'left'`); n != 1 {
		t.Errorf("%d entries left after the confirmed POST, want 1", n)
	}
	again := f.get(link + "/leave")
	wantStatus(t, again, http.StatusFound)
	if again.location() != link {
		t.Errorf("the question after leaving went to %q, want the place's page", again.location())
	}

	other, _ := f.joinAs("Marta", "marta@example.com", morning)
	f.exec(`UPDATE company SET language = 'es'`)
	wantBody(t, f.get(other+"/leave"), "¿Salir de la lista de espera?", "Sí, salir de la lista de espera", "Mantener mi lugar")
}
