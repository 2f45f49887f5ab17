package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Owners remove each other: the removed owner's session ends at once; removing yourself needs
// an explicit tick and signs you out; the last owner cannot be removed, by the page or by any
// other writer (a trigger).
func TestRemoveOwner(t *testing.T) {
	ts := startServer(t)
	a := ts.setupOwner(t)
	for _, email := range []string{"bruno@example.com", "carla@example.com"} {
		wantRedirect(t, a.post(t, "/owners", url.Values{"owner_email": {email}, "password": {ownerPassword}}), "/settings/team")
	}
	b, c := ts.newClient(t), ts.newClient(t)
	b.login(t, "bruno@example.com", ownerPassword)
	c.login(t, "carla@example.com", ownerPassword)
	d := openBookingDB(t, ts)
	idOf := func(email string) string {
		t.Helper()
		var id string
		if err := d.Read.QueryRow(`SELECT id FROM owners WHERE email = ?`, email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	bruno, me, carla := idOf("bruno@example.com"), idOf(ownerEmail), idOf("carla@example.com")

	wantBody(t, a.get(t, "/settings/team"), `href="/owners/`+bruno+`/remove" data-testid="remove-owner"`)
	confirm := a.get(t, "/owners/"+bruno+"/remove")
	wantBody(t, confirm, "bruno@example.com", `data-testid="confirm-remove-owner"`)
	if strings.Contains(confirm.Body, `data-testid="remove-self-warning"`) {
		t.Error("removing someone else warns as if it were yourself")
	}
	wantStatus(t, b.get(t, "/"), http.StatusOK)
	wantRedirect(t, a.post(t, "/owners/"+bruno+"/remove", nil), "/settings/team")
	wantBody(t, a.get(t, "/settings/team"), "bruno@example.com was removed")
	wantRedirect(t, b.get(t, "/"), "/login") // the removed owner's session is over

	// Yourself: the page warns, and a submit without the tick changes nothing.
	wantBody(t, a.get(t, "/owners/"+me+"/remove"), `data-testid="remove-self-warning"`, `name="confirm_self"`)
	res := a.post(t, "/owners/"+me+"/remove", nil)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-confirm_self"`)
	wantStatus(t, a.get(t, "/"), http.StatusOK)
	wantRedirect(t, a.post(t, "/owners/"+me+"/remove", url.Values{"confirm_self": {"1"}}), "/login")
	wantRedirect(t, a.get(t, "/"), "/login")

	// Carla is the last one.
	if strings.Contains(c.get(t, "/settings/team").Body, `data-testid="remove-owner"`) {
		t.Error("the only owner is offered a Remove link")
	}
	res = c.post(t, "/owners/"+carla+"/remove", url.Values{"confirm_self": {"1"}})
	wantStatus(t, res, http.StatusConflict)
	wantBody(t, res, "the only owner")
	wantStatus(t, c.get(t, "/"), http.StatusOK)
	if _, err := d.Write.Exec(`DELETE FROM owners`); err == nil {
		t.Error("the database let the last owner be deleted")
	}
	wantStatus(t, c.get(t, "/owners/999/remove"), http.StatusNotFound)
}
