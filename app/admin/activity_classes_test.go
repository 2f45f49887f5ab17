package admin_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/staff"
)

// A manager adds a weekly class, changes it and deletes it: each is one entry by the manager
// about the timetable entry, with what changed; a refused entry (a provider who does not work
// there) leaves none.
func TestClassTimetableInTrail(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedClassWorld(t, ts)
	d := openBookingDB(t, ts)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	maxID := ownerID(t, d, "max@example.com")
	since := lastEntryID(t, d)

	entry := url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Nora}, "day": {w.weekday(t)},
		"start": {"10:00"}, "valid_from": {time.Now().Format(time.DateOnly)}, "room": {"Studio"}}
	wantStatus(t, max.post(t, "/catalog/timetable", entry), http.StatusUnprocessableEntity)
	if n := len(entriesOf(t, d, since, "timetable_entry.created")); n != 0 {
		t.Fatalf("a refused timetable entry left %d entries", n)
	}
	entry.Set("provider", w.Ana)
	res := max.post(t, "/catalog/timetable", entry)
	path := res.Header.Get("Location")
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(path, "/catalog/timetable/") {
		t.Fatalf("adding a weekly class: got %d %s", res.Status, res.Body)
	}
	e := wantEntry(t, d, since, "timetable_entry.created", maxID, "max@example.com", "timetable_entry",
		`"room":[null,"Studio"]`, `"start_min":[null,600]`, `"provider_id":[null,`+w.Ana+`]`)
	if id := strconv.FormatInt(e.EntityID, 10); path != "/catalog/timetable/"+id {
		t.Errorf("timetable_entry.created is about entry %s, want the one at %s", id, path)
	}
	if strings.Contains(e.Changes, "created_at") || strings.Contains(e.Changes, "timezone") {
		t.Errorf("timetable_entry.created records columns it should leave out: %s", e.Changes)
	}

	entry.Set("capacity", "1")
	entry.Set("start", "11:00")
	wantStatus(t, max.post(t, path, url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Nora},
		"day": {w.weekday(t)}, "start": {"11:00"}, "valid_from": {time.Now().Format(time.DateOnly)}}), http.StatusUnprocessableEntity)
	if n := len(entriesOf(t, d, since, "timetable_entry.updated")); n != 0 {
		t.Fatalf("a refused change left %d entries", n)
	}
	wantRedirect(t, max.post(t, path, entry), path)
	e = wantEntry(t, d, since, "timetable_entry.updated", maxID, "max@example.com", "timetable_entry",
		`"capacity":[null,1]`, `"start_min":[600,660]`)
	if strings.Contains(e.Changes, "room") || strings.Contains(e.Changes, "updated_at") {
		t.Errorf("timetable_entry.updated records fields that did not change: %s", e.Changes)
	}
	wantRedirect(t, max.post(t, path, entry), path) // nothing changed: nothing recorded
	if n := len(entriesOf(t, d, since, "timetable_entry.updated")); n != 1 {
		t.Errorf("%d timetable_entry.updated entries after an unchanged save, want 1", n)
	}

	res = max.post(t, path+"/delete", nil)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("deleting the entry: got %d %s", res.Status, res.Body)
	}
	wantEntry(t, d, since, "timetable_entry.deleted", maxID, "max@example.com", "timetable_entry", `"room":["Studio",null]`)
}

// A manager adds a one-off session, changes a session's seats, cancels it (its attendees'
// bookings with it) and restores it: each is one entry by the manager about the session; a
// refused change (a capacity below the attendees, a one-off session while the provider teaches)
// and cancelling a cancelled session leave none.
func TestClassSessionsInTrail(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedClassWorld(t, ts)
	d := openBookingDB(t, ts)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	maxID := ownerID(t, d, "max@example.com")
	res := max.post(t, "/catalog/timetable", url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Ana},
		"day": {w.weekday(t)}, "start": {"10:00"}, "valid_from": {time.Now().Format(time.DateOnly)}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("adding a weekly class: got %d %s", res.Status, res.Body)
	}
	var session int64
	if err := d.Read.QueryRow(`SELECT id FROM class_sessions WHERE local_date = ?`, w.Day).Scan(&session); err != nil {
		t.Fatalf("the session of %s: %v", w.Day, err)
	}
	path := "/bookings/sessions/" + strconv.FormatInt(session, 10)
	for _, client := range []string{w.Maria, w.Pedro} {
		wantRedirect(t, max.post(t, path+"/attendees", url.Values{"client": {client}}), path)
	}
	since := lastEntryID(t, d)

	oneOff := url.Values{"location": {w.Location}, "service": {w.Yoga}, "provider": {w.Ana}, "date": {w.Day}, "start": {"10:30"}}
	wantStatus(t, max.post(t, "/catalog/timetable/one-off", oneOff), http.StatusUnprocessableEntity) // Ana teaches then
	if n := len(entriesOf(t, d, since, "class_session.created")); n != 0 {
		t.Fatalf("a refused one-off session left %d entries", n)
	}
	oneOff.Set("start", "18:00")
	oneOff.Set("room", "Garden")
	res = max.post(t, "/catalog/timetable/one-off", oneOff)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("adding a one-off session: got %d %s", res.Status, res.Body)
	}
	e := wantEntry(t, d, since, "class_session.created", maxID, "max@example.com", "class_session",
		`"room":[null,"Garden"]`, `"local_date":[null,"`+w.Day+`"]`, `"start_at":[null,"`)
	if want := "/bookings/sessions/" + strconv.FormatInt(e.EntityID, 10); res.Header.Get("Location") != want {
		t.Errorf("class_session.created is about %s, want %s", want, res.Header.Get("Location"))
	}

	max.post(t, path+"/seats", url.Values{"capacity": {"1"}}) // two attendees: refused
	if n := len(entriesOf(t, d, since, "class_session.updated")); n != 0 {
		t.Fatalf("a refused capacity left %d entries", n)
	}
	wantRedirect(t, max.post(t, path+"/seats", url.Values{"capacity": {"3"}, "room": {"Hall"}}), path)
	e = wantEntry(t, d, since, "class_session.updated", maxID, "max@example.com", "class_session", `"capacity":[null,3]`, `"room":[null,"Hall"]`)
	if e.EntityID != session {
		t.Errorf("class_session.updated is about session %d, want %d", e.EntityID, session)
	}

	wantRedirect(t, max.post(t, path+"/cancel", nil), path)
	wantRedirect(t, max.post(t, path+"/cancel", nil), path) // already cancelled: nothing recorded
	wantEntry(t, d, since, "class_session.cancelled", maxID, "max@example.com", "class_session",
		`"status":["scheduled","cancelled"]`, `"bookings_cancelled":[null,2]`)
	wantRedirect(t, max.post(t, path+"/restore", nil), path)
	wantEntry(t, d, since, "class_session.restored", maxID, "max@example.com", "class_session", `"status":["cancelled","scheduled"]`)
}
