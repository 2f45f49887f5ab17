package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func exec(t *testing.T, f *fixture, query string, args ...any) {
	t.Helper()
	if _, err := f.db.Write.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// A retried book with the same idempotency key books once and answers the same booking; the
// key cannot be reused for another booking.
func TestBookIsIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, second := fallBackSlots(t, cs)
	args := map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "6f1c-retry"}
	var a, b bookingOut
	ok(t, cs, "book", args, &a)
	r := ok(t, cs, "book", args, &b)
	if a.BookingID != b.BookingID || !strings.Contains(r.text, "already made") {
		t.Fatalf("retry answered booking %d (%q), want %d again", b.BookingID, r.text, a.BookingID)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings"); n != 1 {
		t.Fatalf("%d bookings after a retried call, want 1", n)
	}
	if n := count(t, f, "SELECT count(*) FROM events WHERE type = 'booking.created'"); n != 1 {
		t.Fatalf("%d booking.created events, want 1", n)
	}
	args["slot_id"] = second.SlotID
	fails(t, cs, "book", args, "invalid_input")
	// A refusal does not use the key up: after the reason is gone, the same call books.
	args["idempotency_key"] = "after-refusal"
	args["slot_id"] = first.SlotID
	fails(t, cs, "book", args, "already_booked") // María holds it herself
	cs2 := f.connect(f.fullKey)
	ok(t, cs2, "cancel_booking", map[string]any{"booking_id": a.BookingID, "client_id": clientMaria}, nil)
	ok(t, cs, "book", args, nil)
}

// A client who asks for a time she already holds is told so, with the booking — not that
// "someone else" just took it, with other times to book a second time. Another client asking for
// that time is told it was just taken, with the alternatives.
func TestBookingATimeTheClientHolds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, second := fallBackSlots(t, cs)
	var held bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "first"}, &held)
	r := fails(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "again"}, "already_booked")
	for _, want := range []string{"already has this booking", "nothing new was booked", fmt.Sprintf("Booking %d (confirmed)", held.BookingID), "23:30-23:00 (UTC-03:00"} {
		if !strings.Contains(r.text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, r.text)
		}
	}
	if strings.Contains(r.text, "someone else") || strings.Contains(r.text, "slot_id slot_") {
		t.Errorf("the answer calls the client's own booking someone else's, or offers times:\n%s", r.text)
	}
	// Her booking moved to 23:15 (by the owner, say) still holds Ben at 23:30: the answer names it.
	exec(t, f, `UPDATE bookings SET start_at = start_at - 900000, end_at = end_at - 900000,
		block_start_at = block_start_at - 900000, block_end_at = block_end_at - 900000 WHERE id = ?`, held.BookingID)
	r = fails(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "overlap"}, "already_booked")
	if !strings.Contains(r.text, "already has a booking with Ben at that time") || !strings.Contains(r.text, fmt.Sprintf("Booking %d", held.BookingID)) {
		t.Errorf("an overlapping booking of hers: %s", r.text)
	}
	r = fails(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientJohn, "idempotency_key": "john"}, "just_taken")
	if !strings.Contains(r.text, "someone else") || !strings.Contains(r.text, "slot_id") {
		t.Errorf("another client: %s", r.text)
	}
	// Moving another booking of hers onto the time she holds says the same.
	var other bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": second.SlotID, "client_id": clientMaria, "idempotency_key": "second"}, &other)
	r = fails(t, cs, "reschedule_booking", map[string]any{"booking_id": other.BookingID, "client_id": clientMaria, "slot_id": first.SlotID}, "already_booked")
	if !strings.Contains(r.text, fmt.Sprintf("Booking %d", held.BookingID)) {
		t.Errorf("a reschedule onto her own booking: %s", r.text)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings"); n != 2 {
		t.Fatalf("%d bookings, want her 2", n)
	}
}

// Policy refusals name the policy in plain words, with its numbers.
func TestPolicyRefusalsInPlainWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, second := fallBackSlots(t, cs)
	var b bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "p"}, &b)
	ids := map[string]any{"booking_id": b.BookingID, "client_id": clientMaria}
	move := map[string]any{"booking_id": b.BookingID, "client_id": clientMaria, "slot_id": second.SlotID}

	exec(t, f, "UPDATE company SET can_cancel = 0")
	r := fails(t, cs, "cancel_booking", ids, "not_allowed")
	if !strings.Contains(r.text, "does not allow bookings to be cancelled online") {
		t.Fatalf("can_cancel: %q", r.text)
	}
	exec(t, f, "UPDATE company SET can_cancel = 1, can_edit = 0")
	if r := fails(t, cs, "reschedule_booking", move, "not_allowed"); !strings.Contains(r.text, "changed online") {
		t.Fatalf("can_edit: %q", r.text)
	}
	exec(t, f, "UPDATE company SET can_edit = 1, edit_lock_min = 120")
	f.setNow(time.Date(2027, 4, 4, 1, 0, 0, 0, time.UTC)) // Saturday 22:00 in Santiago, 90 minutes before
	if r := fails(t, cs, "cancel_booking", ids, "not_allowed"); !strings.Contains(r.text, "less than 2 hours before") {
		t.Fatalf("edit lock: %q", r.text)
	}
	f.setNow(fixtureNow)
	exec(t, f, "UPDATE company SET edit_lock_min = 0, max_changes = 1")
	ok(t, cs, "reschedule_booking", move, nil)
	move["slot_id"] = first.SlotID
	if r := fails(t, cs, "reschedule_booking", move, "not_allowed"); !strings.Contains(r.text, "rescheduled 1 time(s), the most") {
		t.Fatalf("max changes: %q", r.text)
	}
	exec(t, f, "UPDATE company SET max_changes = 0, min_notice_min = 4320")
	r = fails(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientJohn, "idempotency_key": "n"}, "not_allowed")
	if !strings.Contains(r.text, "too soon") || !strings.Contains(r.text, "notice") {
		t.Fatalf("notice: %q", r.text)
	}
}

// The client tool finds by exact email or phone and shows only the name; creating needs
// clients:write and goes through app/clients (client.created).
func TestClientLookupRevealsNothingElse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	readOnly := f.connect(f.newKey("clients:read", true))
	r := ok(t, readOnly, "find_or_create_client", map[string]any{"phone": "+56 9 1234-5678"}, nil)
	for _, secret := range []string{"maria@example.com", "email", "+569"} {
		if strings.Contains(string(r.data), secret) || strings.Contains(r.text, secret) {
			t.Fatalf("lookup by phone shows %q: %s / %s", secret, r.data, r.text)
		}
	}
	if !strings.Contains(string(r.data), `"client_id":1`) {
		t.Fatalf("lookup by phone: %s, want client 1", r.data)
	}
	// Prefixes, other spellings and partial addresses find nothing.
	for _, args := range []map[string]any{{"email": "maria@example.co"}, {"email": "aria@example.com"}, {"phone": "+5691234567"}} {
		fails(t, readOnly, "find_or_create_client", args, "not_found")
	}
	fails(t, readOnly, "find_or_create_client", map[string]any{"email": "new@example.com", "first_name": "Nadia"}, "scope_denied")
	full := f.connect(f.fullKey)
	var c struct {
		ClientID int64 `json:"client_id"`
		Created  bool  `json:"created"`
	}
	ok(t, full, "find_or_create_client", map[string]any{"email": "New@Example.com", "first_name": "Nadia", "last_name": "Núñez"}, &c)
	if !c.Created || count(t, f, "SELECT count(*) FROM events WHERE type = 'client.created'") != 1 {
		t.Fatalf("create: %+v, want created with a client.created event", c)
	}
	ok(t, full, "find_or_create_client", map[string]any{"email": "new@example.com", "first_name": "Nadia"}, &c)
	if c.Created || count(t, f, "SELECT count(*) FROM clients") != 3 {
		t.Fatalf("second call: %+v, want the same client found", c)
	}
}

// An assistant changes only the bookings of the client it names.
func TestOtherClientsBookingsAreOutOfReach(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	first, second := fallBackSlots(t, cs)
	var b bookingOut
	ok(t, cs, "book", map[string]any{"slot_id": first.SlotID, "client_id": clientMaria, "idempotency_key": "m"}, &b)
	fails(t, cs, "cancel_booking", map[string]any{"booking_id": b.BookingID, "client_id": clientJohn}, "not_found")
	fails(t, cs, "reschedule_booking", map[string]any{"booking_id": b.BookingID, "client_id": clientJohn, "slot_id": second.SlotID}, "not_found")
	var up struct {
		Bookings []bookingOut `json:"bookings"`
	}
	ok(t, cs, "upcoming_bookings", map[string]any{"client_id": clientJohn}, &up)
	if len(up.Bookings) != 0 {
		t.Fatalf("John's upcoming bookings: %+v", up.Bookings)
	}
	if n := count(t, f, "SELECT count(*) FROM bookings WHERE status_id = 1 AND start_at = ?", time.Date(2027, 4, 4, 2, 30, 0, 0, time.UTC).UnixMilli()); n != 1 {
		t.Fatalf("Maria's booking changed: %d confirmed at the first 23:30", n)
	}
}

// Dates are read in the location's own calendar.
func TestResolveDateInTheLocationsZone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	f.setNow(time.Date(2027, 4, 2, 3, 30, 0, 0, time.UTC)) // Friday 00:30 in Santiago, Thursday 23:30 in New York
	var got struct {
		Date  string `json:"date"`
		Today string `json:"today"`
	}
	ok(t, cs, "resolve_date", map[string]any{"phrase": "mañana", "location_id": 1}, &got)
	if got.Date != "2027-04-03" || got.Today != "2027-04-02" {
		t.Fatalf("mañana in Santiago: %+v", got)
	}
	ok(t, cs, "resolve_date", map[string]any{"phrase": "tomorrow", "location_id": 2}, &got)
	if got.Date != "2027-04-02" || got.Today != "2027-04-01" {
		t.Fatalf("tomorrow in New York: %+v", got)
	}
	fails(t, cs, "resolve_date", map[string]any{"phrase": "tomorrow"}, "invalid_input") // two locations: which calendar?
	r := ok(t, cs, "resolve_date", map[string]any{"phrase": "next Saturday", "location_id": 1}, &got)
	if got.Date != "2027-04-03" || !strings.Contains(r.text, "2027-04-10") {
		t.Fatalf("next Saturday on a Friday: %+v %q, want 2027-04-03 with a note about 2027-04-10", got, r.text)
	}
}

// What can be booked, and why nothing can.
func TestCatalogAndEmptyAnswers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	var svc struct {
		Services []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"services"`
	}
	ok(t, cs, "list_services", map[string]any{"query": "TINTE"}, &svc)
	if len(svc.Services) != 1 || svc.Services[0].Name != "Colour" {
		t.Fatalf("search by keyword: %+v", svc.Services)
	}
	r := ok(t, cs, "list_services", map[string]any{}, &svc)
	if len(svc.Services) != 2 || strings.Contains(r.text, "Massage") {
		t.Fatalf("bookable services: %+v (Massage is not bookable online)", svc.Services)
	}
	r = ok(t, cs, "list_services", map[string]any{"location_id": 2}, &svc)
	if len(svc.Services) != 0 || !strings.Contains(r.text, "Haircut, Colour") {
		t.Fatalf("services at Manhattan: %+v %q", svc.Services, r.text)
	}
	fails(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 3, "date": "tomorrow"}, "not_allowed")
	fails(t, cs, "find_free_times", map[string]any{"location_id": 2, "service_id": 1, "date": "tomorrow"}, "not_allowed")

	var ft struct {
		Slots []any  `json:"slots"`
		Note  string `json:"note"`
	}
	ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "yesterday"}, &ft)
	if len(ft.Slots) != 0 || !strings.Contains(ft.Note, "passed") {
		t.Fatalf("yesterday: %+v", ft)
	}
	exec(t, f, "UPDATE company SET max_advance_days = 1")
	ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "2027-04-10"}, &ft)
	if len(ft.Slots) != 0 || !strings.Contains(ft.Note, "bookings open 1 day ahead") {
		t.Fatalf("beyond the advance window: %+v", ft)
	}
	// Limits and windows: two days of Ben's times from 23:00 (the repeated hour twice: 8), at most 3 shown.
	exec(t, f, "UPDATE company SET max_advance_days = 0")
	var many freeTimes
	ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "provider_id": 1, "date": "2027-04-03",
		"days": 2, "after": "23:00", "limit": 3}, &many)
	if len(many.Slots) != 3 || many.TotalFound != 8 || many.Slots[0].LocalTime != "23:00" {
		t.Fatalf("after 23:00, limit 3: %+v", many)
	}
}

// Asked for "today" after the location has closed, the answer says it has closed for the day
// and names the next day with free times — not "try another provider", which no provider can
// help with. On a day it is still open but fully booked, the old words stay.
func TestTodayAfterClosing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs := f.connect(f.fullKey)
	f.setNow(time.Date(2027, 4, 2, 23, 0, 0, 0, time.UTC)) // Friday 20:00 in Santiago; Providencia closes at 19:00
	var ft struct {
		Slots []any  `json:"slots"`
		Note  string `json:"note"`
	}
	r := ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "date": "today"}, &ft)
	for _, want := range []string{"Providencia has closed for today: it closed at 19:00, and it is 20:00 there now",
		"the next free times are on Saturday 2027-04-03, from 22:00: call find_free_times with date 2027-04-03"} {
		if !strings.Contains(ft.Note, want) || !strings.Contains(r.text, want) {
			t.Errorf("today after closing: note %q, want %q", ft.Note, want)
		}
	}
	if len(ft.Slots) != 0 || strings.Contains(r.text, "another provider") {
		t.Errorf("today after closing: %d slots, text %q", len(ft.Slots), r.text)
	}
	// Only with Ana, who works again on Monday.
	ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "provider_id": 2, "date": "today"}, &ft)
	if !strings.Contains(ft.Note, "the next free times are on Monday 2027-04-05, from 09:00") {
		t.Errorf("today after closing, with Ana: note %q", ft.Note)
	}
	// Friday 17:50: still open, but Ana's day is over (she works until 18:00, a cut lasts 30 minutes).
	f.setNow(time.Date(2027, 4, 2, 20, 50, 0, 0, time.UTC))
	ok(t, cs, "find_free_times", map[string]any{"location_id": 1, "service_id": 1, "provider_id": 2, "date": "today"}, &ft)
	if len(ft.Slots) != 0 || strings.Contains(ft.Note, "has closed") || !strings.Contains(ft.Note, "no free times then") {
		t.Errorf("today before closing: %+v", ft)
	}
}

func TestResourcesAndPrompt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	exec(t, f, "UPDATE company SET min_notice_min = 120, max_advance_days = 30, edit_lock_min = 1440, max_changes = 2")
	cs := f.connect(f.fullKey)
	ctx := context.Background()
	read := func(cs *sdk.ClientSession, uri string) (string, error) {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}
	hours, err := read(cs, "frontdesk://opening-hours")
	if err != nil || !strings.Contains(hours, "## Providencia") || !strings.Contains(hours, "Saturday: 19:00-24:00") || !strings.Contains(hours, "America/New_York") {
		t.Fatalf("opening hours: %v\n%s", err, hours)
	}
	policies, err := read(cs, "frontdesk://policies")
	for _, want := range []string{"at least 2 hours notice", "open 30 days ahead", "up to 1 day before", "at most 2 times"} {
		if err != nil || !strings.Contains(policies, want) {
			t.Fatalf("policies lack %q: %v\n%s", want, err, policies)
		}
	}
	if _, err := read(f.connect(f.newKey("bookings:read", true)), "frontdesk://opening-hours"); err == nil || !strings.Contains(err.Error(), "locations:read") {
		t.Fatalf("hours without locations:read: %v", err)
	}
	p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "receptionist", Arguments: map[string]string{"language": "español"}})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*sdk.TextContent).Text
	for _, want := range []string{"Test Salon", "español", "resolve_date", "find_free_times", "idempotency_key", "just_taken"} {
		if !strings.Contains(text, want) {
			t.Fatalf("prompt lacks %q:\n%s", want, text)
		}
	}
}
