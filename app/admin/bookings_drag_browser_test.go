package admin_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// dragJS drags the day view's block of booking id onto the cell of provider at the instant
// (Unix ms) with the browser's own drag events, as a mouse drag fires them.
func dragJS(id string, provider int64, at int64) string {
	return dragOnto(`a.day-booking[data-booking="`+id+`"]`, fmt.Sprintf(`td[data-provider="%d"][data-at="%d"]`, provider, at))
}

// dragOnto drags the element block selects onto the one cell selects.
func dragOnto(block, cell string) string {
	return fmt.Sprintf(`(() => {
		const block = document.querySelector('%s');
		const cell = document.querySelector('%s');
		if (!block || !cell) return false;
		const dt = new DataTransfer();
		block.dispatchEvent(new DragEvent("dragstart", {bubbles: true, cancelable: true, dataTransfer: dt}));
		cell.dispatchEvent(new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: dt}));
		cell.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
		block.dispatchEvent(new DragEvent("dragend", {bubbles: true, cancelable: true, dataTransfer: dt}));
		return true;
	})()`, block, cell)
}

// Dragging a booking in the day view: dropped onto a clash (Bruno's 11:00, held by Pedro) the
// page says why in the move form's words and nothing changes; dropped onto a free time (Ana's
// 14:00) it asks first, and only the confirm moves it — one booking.updated at a real webhook
// receiver. In the week view, dropped on Bruno's cell of the same day it moves to Bruno at the
// same time, again only on confirm.
func TestBrowserDragBookingToMove(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	rc := newReceiver(t)
	createWebhook(t, c, webhookForm(rc.URL, "*"))
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	wantRedirect(t, c.post(t, "/bookings", w.booking(w.Bruno, w.Pedro, "11:00")), w.dayPath())
	var id string
	if err := d.Read.QueryRow(`SELECT min(id) FROM bookings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	day, err := time.ParseInLocation(time.DateOnly, w.Day, w.zone)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the two booking.created at the receiver", func() bool { return len(rc.received()) == 2 })
	before := eventTypes(t, d)

	b := newBrowser(t, 1280, 900)
	b.do("login", chromedp.Navigate(ts.URL+w.dayPath()), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("day-grid")))

	// Onto Bruno at 11:00, where Pedro is: refused with the reason; nothing changes.
	if !evalJS[bool](b, dragJS(id, w.brunoID, day.Add(11*time.Hour).UnixMilli())) {
		t.Fatal("no block or no Bruno 11:00 cell to drag between")
	}
	b.do("refused", chromedp.WaitVisible(testID("drag-refused")))
	if got := b.text("[data-testid=drag-refused]"); !strings.Contains(got, "Bruno already has a booking at 11:00–11:30 (Pedro Diaz, Norte).") {
		t.Errorf("the refused drop says %q, want the booking in the way", got)
	}
	if b.present(`[data-testid=drag-confirm]`) {
		t.Error("a refused drop offers to confirm")
	}
	if _, provider, start := bookingRow(t, d, id); provider != w.anaID || !start.Equal(day.Add(10*time.Hour)) {
		t.Errorf("after the refused drop the booking is with provider %d at %v, want Ana at 10:00", provider, start)
	}

	// Onto Ana at 14:00: a question first; the booking moves only on confirm.
	if !evalJS[bool](b, dragJS(id, w.anaID, day.Add(14*time.Hour).UnixMilli())) {
		t.Fatal("no Ana 14:00 cell to drag to")
	}
	b.do("asked", chromedp.WaitVisible(testID("drag-confirm")))
	if got := b.text("[data-testid=drag-question]"); !strings.Contains(got, "Ana") || !strings.Contains(got, "14:00") {
		t.Errorf("the drop asks %q, want Ana at 14:00", got)
	}
	if _, _, start := bookingRow(t, d, id); !start.Equal(day.Add(10 * time.Hour)) {
		t.Errorf("the booking moved to %v before the confirm", start)
	}
	b.do("moved", chromedp.Click(testID("drag-confirm")), chromedp.WaitVisible(testID("booking-summary")))
	if _, provider, start := bookingRow(t, d, id); provider != w.anaID || !start.Equal(day.Add(14*time.Hour)) {
		t.Errorf("after the confirm: provider %d at %v, want Ana at 14:00", provider, start)
	}
	if got, want := eventTypes(t, d), append(slices.Clone(before), "booking.updated"); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	waitFor(t, "booking.updated at the receiver", func() bool { return len(rc.received()) == 3 })
	updated := 0
	for _, got := range rc.received() {
		if strings.Contains(string(got.body), `"booking.updated"`) {
			updated++
		}
	}
	if updated != 1 {
		t.Errorf("%d booking.updated deliveries, want 1", updated)
	}

	// The week view: onto Bruno's cell of the same day, at the same time (14:00).
	b.do("week", chromedp.Navigate(ts.URL+"/bookings/week?location="+w.Location+"&date="+w.Day), chromedp.WaitVisible(testID("week-grid")))
	if !evalJS[bool](b, dragOnto(`a.cal-booking[data-id="`+id+`"]`, fmt.Sprintf(`td[data-provider="%d"][data-date="%s"]`, w.brunoID, w.Day))) {
		t.Fatal("no week block or no Bruno cell to drag between")
	}
	b.do("week asked", chromedp.WaitVisible(testID("drag-confirm")))
	if _, provider, _ := bookingRow(t, d, id); provider != w.anaID {
		t.Errorf("the booking moved to provider %d before the confirm", provider)
	}
	b.do("week moved", chromedp.Click(testID("drag-confirm")), chromedp.WaitVisible(testID("booking-summary")))
	if _, provider, start := bookingRow(t, d, id); provider != w.brunoID || !start.Equal(day.Add(14*time.Hour)) {
		t.Errorf("after the week confirm: provider %d at %v, want Bruno at 14:00", provider, start)
	}
}
