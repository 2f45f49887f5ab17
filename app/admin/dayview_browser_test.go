package admin_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Every row of the day grid is one height, so a booking is drawn as tall as it is long: two
// 30-minute bookings, one with a short name and one with a long name and a status badge, are
// equally tall, and a 60-minute one twice as tall; at 1280 px and on a 390-px phone.
func TestBrowserDayViewDrawsEqualBookingsEqually(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	ms := time.Now().UnixMilli()
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	long := exec(`INSERT INTO clients (first_name, last_name, email, created_at, updated_at) VALUES ('Maximiliana Josefina', 'de la Fuente Errázuriz', 'max@example.com', ?, ?)`, ms, ms)
	color := exec(`INSERT INTO services (uuid, name, duration_min, price_cents, created_at, updated_at) VALUES ('color', 'Color', 60, 5000, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, color, w.carlaID)

	book := func(form map[string]string) string {
		t.Helper()
		f := w.booking(form["provider"], form["client"], form["time"])
		for k, v := range form {
			f.Set(k, v)
		}
		if res := c.post(t, "/bookings", f); res.Status != 303 {
			t.Fatalf("booking %v: got %d\n%.2000s", form, res.Status, res.Body)
		}
		var id int64
		if err := d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(id, 10)
	}
	short := book(map[string]string{"provider": w.Ana, "client": w.Maria, "time": "10:00"})
	tall := book(map[string]string{"provider": w.Bruno, "client": strconv.FormatInt(long, 10), "time": "14:00", "status": "2"})
	hour := book(map[string]string{"provider": w.Carla, "client": w.Pedro, "time": "10:00", "service": strconv.FormatInt(color, 10)})

	for _, size := range []struct {
		name          string
		width, height int
		opts          []chromedp.EmulateViewportOption
	}{{"1280", 1280, 900, nil}, {"390", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile}}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, size.width, size.height, size.opts...)
			b.do("login", chromedp.Navigate(ts.URL+w.dayPath()), chromedp.WaitVisible(testID("login-form")),
				chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
				chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("day-grid")))
			height := func(id string) float64 {
				return evalJS[float64](b, fmt.Sprintf(`document.querySelector("[data-testid=day-booking][data-booking='%s']").closest("td").getBoundingClientRect().height`, id))
			}
			s, l, h := height(short), height(tall), height(hour)
			if math.Abs(s-l) > 0.5 {
				t.Errorf("two 30-minute bookings are %.1f px and %.1f px tall", s, l)
			}
			if math.Abs(h-2*s) > 1 {
				t.Errorf("a 60-minute booking is %.1f px tall, a 30-minute one %.1f px", h, s)
			}
			if spread := evalJS[float64](b, `(() => { const hs = [...document.querySelectorAll(".day-grid tbody tr")].map(r => r.getBoundingClientRect().height); return Math.max(...hs) - Math.min(...hs) })()`); spread > 0.5 {
				t.Errorf("the grid's rows differ in height by %.1f px", spread)
			}
			// What does not fit a short block is still there, shown when it has the focus.
			b.do("focus", chromedp.Focus(css(fmt.Sprintf("[data-testid=day-booking][data-booking='%s']", tall))))
			if !evalJS[bool](b, fmt.Sprintf(`(() => { const a = document.querySelector("[data-testid=day-booking][data-booking='%s']"); const box = a.parentElement.getBoundingClientRect(); const r = a.getBoundingClientRect(); return r.bottom <= box.bottom + 0.5 })()`, tall)) {
				t.Error("the focused booking's text runs out of its block")
			}
		})
	}
}
