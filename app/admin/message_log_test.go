package admin_test

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"frontdesk/app"
	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// messageWorld is the business of app/messages/testdata/business.json (Studio Ana, one location
// in Santiago; clients María with an address and Nadia without), imported into a running
// server, with a booking of each client at 16:00 Santiago time five days on.
type messageWorld struct {
	d                 *db.DB
	start             time.Time // María's booking
	maria, nadia      int64     // booking ids
	reminder          time.Time // María's 2-hour reminder: 14:00 in Santiago
	bookingPage, logs string
}

func seedMessageWorld(t *testing.T, ts *testServer) messageWorld {
	t.Helper()
	ctx := context.Background()
	if code := app.Run(ctx, app.Env{Args: []string{"import", "--data", ts.Data, filepath.Join("..", "messages", "testdata", "business.json")},
		Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
		t.Fatalf("import: exit %d", code)
	}
	d := openBookingDB(t, ts)
	santiago, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().In(santiago).AddDate(0, 0, 5)
	w := messageWorld{d: d, start: time.Date(day.Year(), day.Month(), day.Day(), 16, 0, 0, 0, santiago), logs: "/settings/messages/log"}
	for client, id := range map[int64]*int64{1: &w.maria, 3: &w.nadia} {
		v, err := booking.Create(ctx, d, time.Now(), booking.NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: client,
			StatusID: booking.StatusConfirmed, Start: w.start.Add(time.Duration(client-1) * time.Hour), Source: booking.SourceAdmin})
		if err != nil {
			t.Fatal(err)
		}
		*id = v.Booking.ID
	}
	// Reminders are written a day before they are due (docs/messages.md, "When reminders are
	// planned"): move the horizon there, as the server's dispatcher will in four days.
	if err := d.InTx(ctx, func(q *db.Queries) error {
		_, err := messages.PlanDueReminders(ctx, q, w.start.Add(-25*time.Hour))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	w.reminder = w.start.Add(-2 * time.Hour)
	w.bookingPage = "/bookings/" + strconv.FormatInt(w.maria, 10)
	return w
}

// reminderRow is the log row of María's 2-hour reminder.
func (w messageWorld) reminderRow(t *testing.T, body string) string {
	t.Helper()
	for _, row := range strings.Split(body, "<tr")[1:] {
		if strings.Contains(row, "Reminder 2h before") || strings.Contains(row, "Recordatorio 2h antes") {
			if strings.Contains(row, w.reminder.UTC().Format(time.RFC3339)) {
				return row
			}
		}
	}
	t.Fatalf("no row of the 2-hour reminder at %s in:\n%.4000s", w.reminder.UTC(), body)
	return ""
}

// The message log says when each message goes in the zone of its booking's location, in the
// admin's date format and the business's clock (not in UTC, nor in the browser's zone and
// format), names that zone once the business has locations in more than one, and says whom a
// message not sent yet goes to: the client's address, or that there is none.
func TestMessageLogTimesAndRecipients(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedMessageWorld(t, ts)

	en := i18n.NewPrinter("en", i18n.Prefs{Clock24: true})
	timeTag := `<time datetime="` + w.reminder.UTC().Format(time.RFC3339) + `">`
	log := c.get(t, w.logs)
	wantStatus(t, log, 200)
	row := w.reminderRow(t, log.Body)
	if want := timeTag + en.DateTime(w.reminder) + "</time>"; !strings.Contains(row, want) {
		t.Errorf("the reminder's row lacks %q (14:00 in Santiago):\n%s", want, row)
	}
	if !strings.HasSuffix(en.DateTime(w.reminder), " 14:00") {
		t.Fatalf("the reminder is at %s, want 14:00 in Santiago", en.DateTime(w.reminder))
	}
	if !strings.Contains(row, "maria@example.com") {
		t.Errorf("the reminder's To is not María's address:\n%s", row)
	}
	if strings.Contains(log.Body, "data-local") {
		t.Error("the log's times are marked for the script to rewrite in the browser's zone")
	}
	if strings.Contains(log.Body, `data-testid="time-zone"`) {
		t.Error("the zone is named although the business has one")
	}
	for _, r := range strings.Split(log.Body, "<tr")[1:] {
		if strings.Contains(r, "message-") && !strings.Contains(r, "maria@example.com") && !strings.Contains(r, "No email address") {
			t.Errorf("a row says no one as its recipient:\n%s", r)
		}
	}
	if !strings.Contains(log.Body, "No email address") {
		t.Error("Nadia's messages do not say she has no address")
	}

	// A second location in another zone: a time alone could be either zone's, so it is named.
	if _, err := w.d.Write.Exec(`INSERT INTO locations (uuid, name, timezone, country_id, created_at, updated_at)
		SELECT 'madrid', 'Madrid', 'Europe/Madrid', country_id, 0, 0 FROM locations WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	row = w.reminderRow(t, c.get(t, w.logs).Body)
	if !strings.Contains(row, `data-testid="time-zone">America/Santiago<`) {
		t.Errorf("with two zones the reminder's time does not name Santiago's:\n%s", row)
	}
	var id string
	if err := w.d.Read.QueryRow(`SELECT id FROM messages WHERE booking_id = ? AND kind = 'reminder' AND offset_min = 120`, w.maria).Scan(&id); err != nil {
		t.Fatal(err)
	}
	detail := c.get(t, w.logs+"/"+id)
	wantBody(t, detail, timeTag+en.DateTime(w.reminder)+"</time>", "America/Santiago", "maria@example.com")
	w.reminderRow(t, c.get(t, w.bookingPage).Body)

	// Spanish on a 12-hour clock: the same instant, written as the rest of the admin writes it.
	if _, err := w.d.Write.Exec(`UPDATE company SET language = 'es', clock = '12h'`); err != nil {
		t.Fatal(err)
	}
	es := i18n.NewPrinter("es", i18n.Prefs{})
	row = w.reminderRow(t, c.get(t, w.logs).Body)
	if want := timeTag + es.DateTime(w.reminder) + "</time>"; !strings.Contains(row, want) || !strings.Contains(want, "2:00 p. m.") {
		t.Errorf("the Spanish 12-hour row lacks %q:\n%s", want, row)
	}
	wantBody(t, c.get(t, w.logs), "Sin correo electrónico")
}

// In a browser whose own zone is neither UTC nor Santiago's, the log still shows the reminder
// at 14:00, Santiago time: no script rewrites it into the browser's zone or format.
func TestBrowserMessageLogKeepsTheBookingsZone(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedMessageWorld(t, ts)
	b := newBrowser(t, 390, 844, chromedp.EmulateMobile)
	if _, err := chromedp.Call(b.ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
		t.Fatal(err)
	}
	b.do("login", chromedp.Navigate(ts.URL+w.logs), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("message-log")))
	if zone := evalJS[string](b, `Intl.DateTimeFormat().resolvedOptions().timeZone`); zone != "Asia/Tokyo" {
		t.Fatalf("the browser's zone is %s, want Asia/Tokyo", zone)
	}
	sel := `time[datetime="` + w.reminder.UTC().Format(time.RFC3339) + `"]`
	want := i18n.NewPrinter("en", i18n.Prefs{Clock24: true}).DateTime(w.reminder)
	if got := b.text(sel); got != want {
		t.Errorf("the 2-hour reminder shows %q in a Tokyo browser, want %q (14:00 in Santiago)", got, want)
	}
}
