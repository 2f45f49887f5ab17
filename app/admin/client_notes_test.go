package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"frontdesk/app/staff"
)

// Notes about a client over time: the team adds them on the client's page, each dated and
// signed by the account that wrote it, newest first; an empty note is refused beside its field
// and stores nothing; a note is deleted by its button; both are in the activity trail. A
// provider account sees a client's name and phone only, never the notes, and cannot add one.
// The client's data export has them; erasing the client deletes them.
func TestClientNotesOverTime(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	reception := addStaff(t, ts, d, "rita@example.com", staff.RoleReception, 0)
	ana := addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, w.anaID)
	page := "/clients/" + w.Maria

	wantRedirect(t, c.post(t, page+"/notes", url.Values{"body": {"Allergic to ammonia.\r\nUse the gentle dye."}}), page+"#notes")
	wantRedirect(t, reception.post(t, page+"/notes", url.Values{"body": {"Prefers <mornings>"}}), page+"#notes")

	res := c.get(t, page)
	wantStatus(t, res, http.StatusOK)
	notes := between(res.Body, `data-testid="story-notes"`, "</ul>")
	first, second := strings.Index(notes, "Prefers &lt;mornings&gt;"), strings.Index(notes, "Allergic to ammonia.\nUse the gentle dye.")
	if first < 0 || second < 0 || first > second {
		t.Fatalf("the notes are not listed newest first, escaped, line breaks kept:\n%s", notes)
	}
	if by := between(notes, `data-testid="note-by" translate="no">`, "<"); by != "Test reception" {
		t.Errorf("the newest note is by %q, want the reception account's name", by)
	}
	if by := strings.Count(notes, `data-testid="note-by" translate="no">`+ownerEmail+"<"); by != 1 {
		t.Errorf("the owner's note is signed %d times with the owner's email (an account without a name), want 1", by)
	}
	if n := strings.Count(notes, `data-testid="note-when"`); n != 2 {
		t.Errorf("%d dated notes, want 2", n)
	}

	// An empty note: 422 on the client's page, the error beside the field, nothing stored.
	empty := c.post(t, page+"/notes", url.Values{"body": {"  \r\n "}})
	wantStatus(t, empty, http.StatusUnprocessableEntity)
	wantBody(t, empty, `data-testid="error-body"`, `data-testid="story-visits"`)
	if n := tableRows(t, d, "client_notes"); n != 2 {
		t.Errorf("%d notes stored after an empty one, want 2", n)
	}
	wantStatus(t, c.post(t, page+"/notes", url.Values{"body": {strings.Repeat("x", 5001)}}), http.StatusUnprocessableEntity)
	wantStatus(t, c.post(t, "/clients/999999/notes", url.Values{"body": {"Nobody"}}), http.StatusNotFound)

	// A provider: no notes on the client's page, and no way to add one.
	if res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")); res.Status != http.StatusSeeOther {
		t.Fatalf("booking Maria with Ana: got %d", res.Status)
	}
	own := ana.get(t, page)
	wantStatus(t, own, http.StatusOK)
	if strings.Contains(own.Body, "Allergic") || strings.Contains(own.Body, "note-form") {
		t.Error("a provider account sees the client's notes")
	}
	wantStatus(t, ana.post(t, page+"/notes", url.Values{"body": {"Mine"}}), http.StatusForbidden)

	// Deleting the newest note leaves the other.
	var newest string
	if err := d.Read.QueryRow(`SELECT id FROM client_notes ORDER BY created_at DESC, id DESC LIMIT 1`).Scan(&newest); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, c.post(t, page+"/notes/999999/delete", nil), http.StatusNotFound)
	wantStatus(t, c.post(t, "/clients/"+w.Pedro+"/notes/"+newest+"/delete", nil), http.StatusNotFound) // another client's
	wantRedirect(t, c.post(t, page+"/notes/"+newest+"/delete", nil), page+"#notes")
	after := c.get(t, page)
	if strings.Contains(after.Body, "mornings") || !strings.Contains(after.Body, "Allergic to ammonia.") {
		t.Error("deleting the newest note did not leave the other alone")
	}
	var added, deleted int
	if err := d.Read.QueryRow(`SELECT count(*) FILTER (WHERE action = 'client.note_added'), count(*) FILTER (WHERE action = 'client.note_deleted') FROM activity WHERE entity = 'client' AND entity_id = ?`, w.mariaID).Scan(&added, &deleted); err != nil {
		t.Fatal(err)
	}
	if added != 2 || deleted != 1 {
		t.Errorf("the trail has %d notes added and %d deleted, want 2 and 1", added, deleted)
	}

	// The client's data export has the notes.
	wantBody(t, c.get(t, page+"/export"), `"notes"`, "Allergic to ammonia.")

	// Erasing Pedro (no open booking) deletes his notes.
	wantRedirect(t, c.post(t, "/clients/"+w.Pedro+"/notes", url.Values{"body": {"Pays in cash"}}), "/clients/"+w.Pedro+"#notes")
	wantRedirect(t, c.post(t, "/clients/"+w.Pedro+"/erase", url.Values{}), "/clients/"+w.Pedro)
	var left int
	if err := d.Read.QueryRow(`SELECT count(*) FROM client_notes WHERE client_id = ?`, w.Pedro).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d notes about Pedro after erasing him, want 0", left)
	}
}
