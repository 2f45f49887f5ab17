package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// classWorld adds to seedBookingWorld a Yoga class of two seats given by Ana at Norte, clients
// Lia and Tom, and a massage pack of five sessions.
type classWorld struct {
	bookingWorld
	Yoga, Lia, Tom, Pack string
}

func seedClassWorld(t *testing.T, ts *testServer) classWorld {
	t.Helper()
	w := classWorld{bookingWorld: seedBookingWorld(t, ts)}
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	exec := func(query string, args ...any) string {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return fmt.Sprint(id)
	}
	w.Yoga = exec(`INSERT INTO services (uuid, name, duration_min, price_cents, capacity, created_at, updated_at) VALUES ('yoga', 'Yoga', 60, 1500, 2, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, w.Yoga, w.anaID)
	w.Pack = exec(`INSERT INTO services (uuid, name, duration_min, price_cents, session_count, created_at, updated_at) VALUES ('pack', 'Massage pack', 60, 20000, 5, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, w.Pack, w.brunoID)
	w.Lia = exec(`INSERT INTO clients (first_name, last_name, created_at, updated_at) VALUES ('Lia', 'Soto', ?, ?)`, ms, ms)
	w.Tom = exec(`INSERT INTO clients (first_name, last_name, created_at, updated_at) VALUES ('Tom', 'Reyes', ?, ?)`, ms, ms)
	return w
}

func (w classWorld) weekday(t *testing.T) string {
	day, err := time.Parse(time.DateOnly, w.Day)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(int(day.Weekday()))
}

func (w classWorld) classDay() string {
	return "/bookings/day?" + url.Values{"location": {w.Location}, "date": {w.Day}, "service": {w.Yoga}}.Encode()
}

// TestClassPages: the owner schedules a weekly class, sees its session in the day view as one
// block with its seats, adds attendees and a waitlisted client, marks one attended from the day
// view, removes another (the waiting client gets the seat), records a pack on a client's page,
// changes the class settings, and cancels the session.
func TestClassPages(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedClassWorld(t, ts)
	d := openBookingDB(t, ts)

	res := c.post(t, "/settings/classes", url.Values{"pack_expiry_days": {"x"}, "waitlist_cutoff_min": {"60"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-pack_expiry_days"`)
	wantRedirect(t, c.post(t, "/settings/classes", url.Values{"pack_expiry_days": {"30"}, "waitlist_cutoff_min": {"60"}}), "/settings/classes")
	wantBody(t, c.get(t, "/settings/classes"), `value="30"`, "Class and pack settings saved.")

	entry := url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Nora}, "day": {w.weekday(t)},
		"start": {"10:00"}, "valid_from": {time.Now().Format(time.DateOnly)}}
	res = c.post(t, "/catalog/timetable", entry)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "This provider does not work at this location.")
	entry.Set("provider", w.Ana)
	res = c.post(t, "/catalog/timetable", entry)
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/catalog/timetable/") {
		t.Fatalf("adding a weekly class: got %d %s", res.Status, res.Body)
	}
	wantBody(t, c.get(t, "/catalog/timetable?location="+w.Location), `data-testid="timetable-row"`, "Yoga", "Ana")

	var session int64
	if err := d.Read.QueryRow(`SELECT id FROM class_sessions WHERE local_date = ?`, w.Day).Scan(&session); err != nil {
		t.Fatalf("the session of %s: %v", w.Day, err)
	}
	sessionPath := fmt.Sprintf("/bookings/sessions/%d", session)
	day := c.get(t, w.classDay())
	wantStatus(t, day, http.StatusOK)
	wantBody(t, day, `data-testid="day-session"`, `data-testid="day-session-seats">0/2<`, "Yoga is a class")

	for _, client := range []string{w.Maria, w.Pedro} {
		wantRedirect(t, c.post(t, sessionPath+"/attendees", url.Values{"client": {client}}), sessionPath)
	}
	c.post(t, sessionPath+"/attendees", url.Values{"client": {w.Lia}})
	wantBody(t, c.get(t, sessionPath), "This class session is full.")
	wantRedirect(t, c.post(t, sessionPath+"/waitlist", url.Values{"client": {w.Lia}}), sessionPath)
	page := c.get(t, sessionPath+"?q=Tom")
	wantBody(t, page, `data-testid="session-seats"`, "2/2", "Maria Lopez", "Pedro Diaz", `data-testid="waiting"`, "Lia Soto",
		`data-testid="add-waiting"`, "Tom Reyes")

	day = c.get(t, w.classDay())
	wantBody(t, day, `data-testid="day-session-seats">2/2<`, "Maria Lopez", "Pedro Diaz", "1 waiting")
	explain := func(clock string) string {
		return "/bookings/explain?" + url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Ana}, "date": {w.Day}, "time": {clock}}.Encode()
	}
	wantBody(t, c.get(t, explain("10:00")), "Class full", "All 2 seats")
	wantBody(t, c.get(t, explain("10:30")), "Not a session time", "that day: 10:00", "not_session_time")
	if strings.Count(day.Body, `data-testid="day-session"`) != 1 || strings.Contains(day.Body, `data-testid="day-booking"`) {
		t.Fatal("the day view shows the session's attendees as separate bookings, want one block")
	}
	maria, pedro := seat(t, d, session, w.Maria), seat(t, d, session, w.Pedro)
	wantRedirect(t, c.post(t, fmt.Sprintf("%s/attendees/%d/status", sessionPath, maria), url.Values{"status": {"attended"}, "back": {w.classDay()}}), w.classDay())
	wantRedirect(t, c.post(t, fmt.Sprintf("%s/attendees/%d/remove", sessionPath, pedro), url.Values{"back": {"https://evil.example/"}}), sessionPath)
	var status int
	d.Read.QueryRow(`SELECT status_id FROM bookings WHERE id = ?`, maria).Scan(&status)
	if status != 3 {
		t.Fatalf("Maria: got status %d, want attended (3)", status)
	}
	if seat(t, d, session, w.Lia) == 0 {
		t.Fatal("Lia did not get the seat Pedro freed")
	}
	wantBody(t, c.get(t, w.classDay()), `data-testid="day-session-seats">2/2<`, "Lia Soto")

	// A haircut with Ana during her class is refused.
	res = c.post(t, "/bookings", w.booking(w.Ana, w.Tom, "10:30"))
	wantStatus(t, res, http.StatusUnprocessableEntity)

	wantRedirect(t, c.post(t, "/clients/"+w.Maria+"/packs", url.Values{"pack_service": {w.Pack}}), "/clients/"+w.Maria)
	wantBody(t, c.get(t, "/clients/"+w.Maria), `data-testid="pack-row"`, "Massage pack", `data-testid="pack-left">5 of 5<`)

	// A booking of the pack's service uses it; cancelling it the owner decides whether the
	// session goes back (offered ticked within the cancel policy).
	massage := url.Values{"location": {w.Location}, "service": {w.Pack}, "provider": {w.Bruno}, "client": {w.Maria},
		"date": {w.Day}, "time": {"15:00"}, "status": {"1"}}
	res = c.post(t, "/bookings", massage)
	wantStatus(t, res, http.StatusSeeOther)
	var massageID, packID int64
	if err := d.Read.QueryRow(`SELECT id, pack_id FROM bookings WHERE service_id = ? AND status_id <> 5`, w.Pack).Scan(&massageID, &packID); err != nil {
		t.Fatalf("the pack booking: %v", err)
	}
	wantBody(t, c.get(t, "/clients/"+w.Maria), `data-testid="pack-left">4 of 5<`)
	wantBody(t, c.get(t, fmt.Sprintf("/bookings/%d/cancel", massageID)), `value="1" checked data-testid="return-session"`)
	c.post(t, fmt.Sprintf("/bookings/%d/cancel", massageID), url.Values{"pack_choice": {"1"}})
	wantBody(t, c.get(t, "/clients/"+w.Maria), `data-testid="pack-left">4 of 5<`) // kept used: the owner unticked it

	wantBody(t, c.get(t, sessionPath+"/cancel"), `data-testid="cancel-session-form"`)
	c.post(t, sessionPath+"/cancel", url.Values{})
	var live int
	d.Read.QueryRow(`SELECT count(*) FROM bookings WHERE session_id = ? AND status_id <> 5`, session).Scan(&live)
	if live != 0 {
		t.Fatalf("after cancelling the session: %d live bookings", live)
	}
	wantBody(t, c.get(t, w.classDay()), `data-testid="day-cancelled-sessions"`)
	wantBody(t, c.get(t, sessionPath), `data-testid="session-cancelled"`)

	// The pages speak the business's language.
	if _, err := d.Write.Exec(`UPDATE company SET language = 'es'`); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, sessionPath), "Asistentes", "Lista de espera", "Esta sesión está cancelada.")
	wantBody(t, c.get(t, "/catalog/timetable?location="+w.Location), "Horario de clases")
}

// seat is the live booking id of client in session (0: none).
func seat(t *testing.T, d *db.DB, session int64, client string) int64 {
	t.Helper()
	var id int64
	d.Read.QueryRow(`SELECT id FROM bookings WHERE session_id = ? AND client_id = ? AND status_id <> 5`, session, client).Scan(&id)
	return id
}

// seedClass adds a class with a timetable to seedDay's business, for the page walks: timetable
// entry 1 and session 1 (today's, in Santiago) with two attendees and a waiting client, and a
// pack for client 1.
func seedClass(t *testing.T, ts *testServer) {
	t.Helper()
	ctx := context.Background()
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec(`INSERT INTO services (id, uuid, name, duration_min, capacity, session_count, created_at, updated_at)
		VALUES (90, 'class', 'Vinyasa-flow-yoga-for-absolute-beginners-and-everyone-else', 60, 2, 5, ?, ?)`, ms, ms)
	exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (1, 1)`)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (90, 1)`)
	zone, _ := time.LoadLocation("America/Santiago")
	today := booking.DateOf(time.Now().In(zone))
	_, _, err := booking.CreateTimetableEntry(ctx, d, time.Now(), booking.TimetableInput{
		LocationID: 1, ServiceID: 90, ProviderID: 1, Weekday: today.Weekday(), StartMin: 23*60 + 15,
		Room: "A-room-name-that-goes-on-and-on-without-any-break-at-all", ValidFrom: today,
	})
	if err != nil {
		t.Fatal(err)
	}
	var start, end int64
	if err := d.Read.QueryRow(`SELECT start_at, end_at FROM class_sessions WHERE id = 1`).Scan(&start, &end); err != nil {
		t.Fatal(err)
	}
	for c := 1; c <= 2; c++ {
		if c == 2 {
			exec(`INSERT INTO clients (id, first_name, last_name, created_at, updated_at) VALUES (2, 'Maximiliano-Alejandro-Sebastián', 'de-la-Fuente-Echeverría', ?, ?)`, ms, ms)
		}
		exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at, block_start_at, block_end_at,
			price_cents, list_price_cents, session_id, created_at, updated_at) VALUES (1, 90, 1, ?, 1, ?, ?, ?, ?, 0, 0, 1, ?, ?)`, c, start, end, start, end, ms, ms)
	}
	exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (3, 'Waiting-client-with-a-long-name', ?, ?)`, ms, ms)
	exec(`INSERT INTO waitlist_entries (session_id, client_id, source, created_at, updated_at) VALUES (1, 3, 'admin', ?, ?)`, ms, ms)
	exec(`INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, expires_at, created_at, updated_at) VALUES (1, 90, 5, 100, ?, ?, ?)`, ms, ms, ms)
}

// TestBrowserClassSessionInDayView: in a real browser the day view shows a class session as one
// block with its seats; the owner opens its attendee list, marks one attendee attended and
// removes another, and sees the waiting client take the freed seat — all from the day view.
func TestBrowserClassSessionInDayView(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedClassWorld(t, ts)
	d := openBookingDB(t, ts)
	res := c.post(t, "/catalog/timetable", url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Ana},
		"day": {w.weekday(t)}, "start": {"10:00"}, "valid_from": {time.Now().Format(time.DateOnly)}})
	wantStatus(t, res, http.StatusSeeOther)
	var session int64
	if err := d.Read.QueryRow(`SELECT id FROM class_sessions WHERE local_date = ?`, w.Day).Scan(&session); err != nil {
		t.Fatal(err)
	}
	sessionPath := fmt.Sprintf("/bookings/sessions/%d", session)
	c.post(t, sessionPath+"/attendees", url.Values{"client": {w.Maria}})
	c.post(t, sessionPath+"/attendees", url.Values{"client": {w.Pedro}})
	c.post(t, sessionPath+"/waitlist", url.Values{"client": {w.Lia}})

	b := newBrowser(t, 1280, 900)
	b.do("login", chromedp.Navigate(ts.URL+w.classDay()), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("day-session")))
	if got := b.text("[data-testid=day-session-seats]"); got != "2/2" {
		t.Fatalf("the session block shows %q, want 2/2", got)
	}
	maria := fmt.Sprintf(`[data-testid=day-attendee][data-booking="%d"]`, seat(t, d, session, w.Maria))
	pedro := fmt.Sprintf(`[data-testid=day-attendee][data-booking="%d"]`, seat(t, d, session, w.Pedro))
	b.do("attended", chromedp.Click(css("[data-testid=day-session] summary")), chromedp.WaitVisible(css(maria)),
		chromedp.Click(css(maria+" [data-testid=mark-attended]")),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`!!document.querySelector(%q)`, maria+" .badge")))
	b.do("open-again", chromedp.Click(css("[data-testid=day-session] summary")), chromedp.WaitVisible(css(maria)))
	if got := b.text(maria); !strings.Contains(got, "Attended") {
		t.Errorf("Maria shows %q, want Attended", got)
	}
	b.do("removed", chromedp.Click(css(pedro+" [data-testid=remove-attendee]")), chromedp.WaitNotPresent(css(pedro)),
		chromedp.WaitVisible(css("[data-testid=day-session] summary")), chromedp.Click(css("[data-testid=day-session] summary")))
	list := b.text("[data-testid=day-session]")
	if !strings.Contains(list, "Lia Soto") || strings.Contains(list, "Pedro Diaz") || !strings.Contains(list, "2/2") {
		t.Errorf("after removing Pedro the block shows %q, want Lia in his seat (2/2)", list)
	}
}
