package admin_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/app"
	"frontdesk/app/messages/watest"
	"frontdesk/db"
)

// Settings → Messages → WhatsApp: the owner switches WhatsApp on (the access token and app
// secret sealed, never shown again; on without a token or with a phone number ID that is not
// digits is refused) and maps a message type to an approved template, refused when a field is
// not a message field; removing the mapping drops it.
func TestWhatsAppSettingsPage(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d, err := db.Open(context.Background(), filepath.Join(ts.Data, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })

	wantBody(t, c.get(t, "/settings/messages/whatsapp"), `data-testid="whatsapp-not-ready"`, `data-testid="whatsapp-form"`, "/whatsapp/webhook")
	res := c.post(t, "/settings/messages/whatsapp", url.Values{"enabled": {"1"}, "phone_number_id": {"12ab"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-phone_number_id"`)
	res = c.post(t, "/settings/messages/whatsapp", url.Values{"enabled": {"1"}, "phone_number_id": {"106540352242922"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-access_token"`)
	wantRedirect(t, c.post(t, "/settings/messages/whatsapp", url.Values{"enabled": {"1"}, "phone_number_id": {"106540352242922"},
		"access_token": {"EAAG-secret-token"}, "app_secret": {"app-secret-value"}, "verify_token": {"my phrase"}}), "/settings/messages/whatsapp")
	page := c.get(t, "/settings/messages/whatsapp")
	wantBody(t, page, `data-testid="whatsapp-ready"`)
	if strings.Contains(page.Body, "EAAG-secret-token") || strings.Contains(page.Body, "app-secret-value") {
		t.Errorf("the page shows a stored secret")
	}
	var token, secret string
	if err := d.Read.QueryRow(`SELECT access_token_sealed, app_secret_sealed FROM message_whatsapp_settings`).Scan(&token, &secret); err != nil ||
		!strings.HasPrefix(token, "v1:") || !strings.HasPrefix(secret, "v1:") || strings.Contains(token+secret, "secret") {
		t.Errorf("stored %q %q (%v), want both sealed", token, secret, err)
	}

	bad := url.Values{"kind": {"confirmation"}, "language": {"es"}, "template_name": {"cita_confirmada"}, "template_lang": {"es"},
		"params": {"ClientFirstName, Hora"}, "buttons": {"1"}}
	res = c.post(t, "/settings/messages/whatsapp/templates", bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "Hora is not a message field")
	good := url.Values{"kind": {"confirmation"}, "language": {"es"}, "template_name": {"cita_confirmada"}, "template_lang": {"es"},
		"params": {"ClientFirstName, Service, {{.Date}}, Time"}, "buttons": {"1"}}
	wantRedirect(t, c.post(t, "/settings/messages/whatsapp/templates", good), "/settings/messages/whatsapp")
	wantBody(t, c.get(t, "/settings/messages/whatsapp"), "cita_confirmada", "ClientFirstName, Service, Date, Time", "Buttons: Confirm, Cancel")
	var params string
	if err := d.Read.QueryRow(`SELECT params FROM message_whatsapp_templates WHERE kind = 'confirmation' AND language = 'es'`).Scan(&params); err != nil ||
		params != "ClientFirstName,Service,Date,Time" {
		t.Errorf("stored params %q (%v)", params, err)
	}
	wantRedirect(t, c.post(t, "/settings/messages/whatsapp/templates", url.Values{"kind": {"confirmation"}, "language": {"es"},
		"template_name": {""}}), "/settings/messages/whatsapp")
	var n int
	d.Read.QueryRow(`SELECT count(*) FROM message_whatsapp_templates`).Scan(&n)
	if n != 0 {
		t.Errorf("%d mappings after removing the only one", n)
	}
}

// A test WhatsApp message: refused until WhatsApp is set up, refused (nothing sent) to a number
// of no one, and sent as Meta's sample template to the business's own number — a request the
// Cloud API's own description accepts — with Meta's answer shown; Meta's refusal of a number
// is shown as the reason.
func TestWhatsAppTestMessage(t *testing.T) {
	wa := watest.Start(t)
	ts := startServer(t, "FRONTDESK_WHATSAPP_API_URL="+wa.URL)
	c := ts.setupOwner(t)
	d, err := db.Open(context.Background(), filepath.Join(ts.Data, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if code := app.Run(context.Background(), app.Env{Args: []string{"import", "--data", ts.Data, filepath.Join("..", "messages", "testdata", "business.json")},
		Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
		t.Fatalf("import: exit %d", code)
	}
	if n, err := d.Write.Exec(`UPDATE locations SET phone = '+56961234567' WHERE id = 1`); err != nil {
		t.Fatal(err)
	} else if rows, _ := n.RowsAffected(); rows != 1 {
		t.Fatalf("the location's phone: %d rows", rows)
	}

	res := c.post(t, "/settings/messages/whatsapp/test", url.Values{"to": {"+56961234567"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "switch WhatsApp on first")
	wantRedirect(t, c.post(t, "/settings/messages/whatsapp", url.Values{"enabled": {"1"}, "phone_number_id": {watest.PhoneNumberID},
		"access_token": {watest.AccessToken}, "app_secret": {watest.AppSecret}, "verify_token": {watest.VerifyToken}}), "/settings/messages/whatsapp")
	wantBody(t, c.get(t, "/settings/messages/whatsapp"), `data-testid="whatsapp-test-form"`)

	res = c.post(t, "/settings/messages/whatsapp/test", url.Values{"to": {"+56962223333"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-to"`, "only to a client")
	if got := wa.Messages(); len(got) != 0 {
		t.Fatalf("a test message to a number of no one was sent: %+v", got)
	}

	wantRedirect(t, c.post(t, "/settings/messages/whatsapp/test", url.Values{"to": {"+56961234567"}}), "/settings/messages/whatsapp")
	wantBody(t, c.get(t, "/settings/messages/whatsapp"), "WhatsApp accepted the test message to +56961234567", watest.WAMID(1))
	if got := wa.Messages(); len(got) != 1 || got[0].To != "56961234567" || got[0].Template != "hello_world" || got[0].Lang != "en_US" {
		t.Fatalf("test message: %+v", got)
	}

	wa.Refuse("56961234567", 131026)
	res = c.post(t, "/settings/messages/whatsapp/test", url.Values{"to": {"+56961234567"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "The test message was not sent", "131026")
}
