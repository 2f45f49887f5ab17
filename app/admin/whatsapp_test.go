package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

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
