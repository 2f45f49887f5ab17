package admin_test

import (
	"net/http"
	"net/url"
	"testing"
)

// The waitlist's "you got a seat" email is a message type like the others in Settings → Messages:
// switched on by default, listed among the templates, worded by default in English and Spanish,
// and editable with the same checks.
func TestSeatMessageTemplatePage(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantBody(t, c.get(t, "/settings/messages"), "Waitlist: you got a seat", `name="on_waitlist_seat" value="1" checked`)
	wantBody(t, c.get(t, "/settings/messages/templates"), "Waitlist: you got a seat", "/settings/messages/templates/waitlist_seat/es")
	es := "/settings/messages/templates/waitlist_seat/es"
	wantBody(t, c.get(t, es), "Tienes un cupo: {{.Service}}")
	wantBody(t, c.get(t, "/settings/messages/templates/waitlist_seat/en"), "You got a seat: {{.Service}}")
	res := c.post(t, es, url.Values{"subject": {"Cupo {{.Nmae}}"}, "body": {"x"}, "action": {"save"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "{{.Nmae}} is not a field")
	wantRedirect(t, c.post(t, es, url.Values{"subject": {"¡Cupo! {{.Service}} {{.Time}}"}, "body": {"{{.When}} {{.ManageLink}}"}, "action": {"save"}}), es)
	wantBody(t, c.get(t, es), "¡Cupo! {{.Service}} {{.Time}}")
}
