package admin_test

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
	"frontdesk/app/staff"
)

var joinLink = regexp.MustCompile(`/join\?token=([A-Za-z0-9_-]+)`)

// Inviting through Settings → Team: the invitation reaches a real SMTP server, its link sets a
// name and password and signs in — once; a wrong token is a plain 404; without a mail server
// the link is shown to copy instead.
func TestInvitationByEmail(t *testing.T) {
	smtp := smtptest.Start(t)
	ts := startServer(t)
	c := ts.setupOwner(t)

	// No mail server yet: the page shows the link.
	res := c.post(t, "/settings/team/invitations", url.Values{"email": {"rita@example.com"}, "role": {"reception"}})
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="team-link"`)
	if !joinLink.MatchString(res.Body) {
		t.Fatalf("no link to copy on the page:\n%.3000s", res.Body)
	}
	shown := joinLink.FindStringSubmatch(res.Body)[1]

	wantRedirect(t, c.post(t, "/settings/messages/transport", url.Values{"host": {smtp.Host()}, "port": {strconv.Itoa(smtp.Port())},
		"security": {messages.SecurityOff}, "from_name": {"Studio"}, "from_address": {"hola@studio.example"}, "username": {""}, "password": {""}}), "/settings/messages")
	bad := c.post(t, "/settings/team/invitations", url.Values{"email": {"not an email"}, "role": {"reception"}})
	wantStatus(t, bad, http.StatusUnprocessableEntity)
	wantBody(t, bad, `data-testid="error-email"`)
	wantRedirect(t, c.post(t, "/settings/team/invitations", url.Values{"email": {"Rita@Example.com"}, "role": {"reception"}}), "/settings/team")
	wantBody(t, c.get(t, "/settings/team"), "rita@example.com", `data-testid="invitations"`)
	msgs := smtp.Messages()
	if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "rita@example.com" {
		t.Fatalf("got messages %+v, want one to rita@example.com", msgs)
	}
	decoded, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(msgs[0].Data)))
	body := string(decoded)
	m := joinLink.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the invitation carries no link:\n%s", body)
	}
	token := m[1]
	// The newer invitation replaced the one shown before.
	wantStatus(t, ts.newClient(t).get(t, "/join?token="+shown), http.StatusNotFound)

	wrong := "A" + token[1:]
	if wrong == token {
		wrong = "B" + token[1:]
	}
	rita := ts.newClient(t)
	wantStatus(t, rita.get(t, "/join?token="+wrong), http.StatusNotFound)
	wantStatus(t, rita.post(t, "/join", url.Values{"token": {wrong}, "name": {"Rita"}, "password": {staffPassword}, "confirm": {staffPassword}}), http.StatusNotFound)
	wantStatus(t, rita.get(t, "/join"), http.StatusNotFound)
	page := rita.get(t, "/join?token="+token)
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, "rita@example.com", `name="name"`)
	short := rita.post(t, "/join", url.Values{"token": {token}, "name": {""}, "password": {"short"}, "confirm": {"short"}})
	wantStatus(t, short, http.StatusUnprocessableEntity)
	wantBody(t, short, `data-testid="error-name"`, `data-testid="error-password"`)
	wantRedirect(t, rita.post(t, "/join", url.Values{"token": {token}, "name": {"Rita"}, "password": {staffPassword}, "confirm": {staffPassword}}), "/")
	wantStatus(t, rita.get(t, "/bookings"), http.StatusOK)
	wantStatus(t, rita.get(t, "/settings/team"), http.StatusForbidden) // reception
	// Once only.
	again := ts.newClient(t)
	wantStatus(t, again.get(t, "/join?token="+token), http.StatusNotFound)
	wantStatus(t, again.post(t, "/join", url.Values{"token": {token}, "name": {"Eve"}, "password": {staffPassword}, "confirm": {staffPassword}}), http.StatusNotFound)
	ts.newClient(t).login(t, "rita@example.com", staffPassword)
	wantBody(t, c.get(t, "/settings/team"), "Rita", "Reception")
}

// A disabled account's open session is refused on its next request, and it cannot sign in;
// enabled again, it can. The last owner cannot be disabled or demoted from the page, and a
// manager may not touch an owner.
func TestDisableAndLastOwner(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	rita := addStaff(t, ts, d, "rita@example.com", staff.RoleReception, 0)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	idOf := func(email string) string {
		t.Helper()
		var id string
		if err := d.Read.QueryRow(`SELECT id FROM owners WHERE email = ?`, email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	ritaID, me := idOf("rita@example.com"), idOf(ownerEmail)

	wantStatus(t, rita.get(t, "/"), http.StatusOK)
	wantRedirect(t, max.post(t, "/settings/team/"+ritaID+"/disable", nil), "/settings/team")
	wantRedirect(t, rita.get(t, "/bookings"), "/login?next=%2Fbookings")
	res := ts.newClient(t).post(t, "/login", url.Values{"email": {"rita@example.com"}, "password": {staffPassword}})
	wantStatus(t, res, http.StatusForbidden)
	wantBody(t, res, "This account is disabled")
	wantRedirect(t, max.post(t, "/settings/team/"+ritaID+"/enable", nil), "/settings/team")
	rita.login(t, "rita@example.com", staffPassword)

	// The manager sees the messages settings but not the mail server's credentials.
	page := max.get(t, "/settings/messages")
	wantStatus(t, page, http.StatusOK)
	if strings.Contains(page.Body, `data-testid="messages-transport-form"`) {
		t.Error("a manager is offered the mail server's settings")
	}
	wantStatus(t, max.post(t, "/settings/messages/transport", url.Values{"host": {"smtp.example.com"}}), http.StatusForbidden)

	// The manager leaves the owner alone.
	wantStatus(t, max.post(t, "/settings/team/"+me+"/disable", nil), http.StatusForbidden)
	wantStatus(t, max.post(t, "/settings/team/"+me+"/role", url.Values{"role": {"reception"}}), http.StatusForbidden)
	wantStatus(t, max.post(t, "/owners/"+me+"/remove", nil), http.StatusForbidden)
	wantStatus(t, max.post(t, "/settings/team/invitations", url.Values{"email": {"x@example.com"}, "role": {"owner"}}), http.StatusUnprocessableEntity)

	// The last owner stays one.
	wantRedirect(t, c.post(t, "/settings/team/"+me+"/disable", nil), "/settings/team")
	wantBody(t, c.get(t, "/settings/team"), "This is the only active owner")
	wantRedirect(t, c.post(t, "/settings/team/"+me+"/role", url.Values{"role": {"manager"}}), "/settings/team")
	wantBody(t, c.get(t, "/settings/team"), "This is the only active owner")
	wantStatus(t, c.get(t, "/settings/integrations/api-keys"), http.StatusOK) // still the owner

	// Reset by link: with no mail server the link is shown; using it signs out the old sessions.
	res = c.post(t, "/settings/team/"+ritaID+"/reset", nil)
	wantStatus(t, res, http.StatusOK)
	m := joinLink.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("no reset link shown:\n%.3000s", res.Body)
	}
	other := ts.newClient(t)
	wantRedirect(t, other.post(t, "/join", url.Values{"token": {m[1]}, "password": {"a new password 1"}, "confirm": {"a new password 1"}}), "/")
	wantRedirect(t, rita.get(t, "/bookings"), "/login?next=%2Fbookings")
	wantStatus(t, other.get(t, "/bookings"), http.StatusOK)
}
