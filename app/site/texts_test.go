package site_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// With texts set up, the details form asks how the visitor wants to hear about their booking;
// texts need a number a phone can text (a landline is refused), and the answer becomes the
// client's preferred channel. Without texts, the form does not ask.
func TestDetailsAskForChannel(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2026, 3, 31, 10, 0, 0, 0, santiago)
	page := f.get(detailsPath(haircut, f.ana, at))
	if strings.Contains(page.body, `name="message_channel"`) {
		t.Errorf("the form asks for a channel while texts are not set up")
	}
	f.exec(`UPDATE message_text_settings SET sms_provider = 'http', gateway_url = 'http://127.0.0.1:9/sms'`)
	wantBody(t, f.get(detailsPath(haircut, f.ana, at)), `name="message_channel"`, "By text message (SMS)")

	form := f.details(haircut, f.ana, at)
	form.Set("email", "camila@example.com")
	form.Set("phone", "+34 912 345 678") // a Madrid landline
	form.Set("message_channel", "sms")
	res := f.post("/book/1/1/details", form)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-message_channel"`)

	form.Set("phone", "9 6123 4567")
	f.book(haircut, form)
	var channel string
	if err := f.db.Read.QueryRow(`SELECT p.channel FROM client_message_prefs p JOIN clients c ON c.id = p.client_id
		WHERE c.email = 'camila@example.com'`).Scan(&channel); err != nil || channel != "sms" {
		t.Errorf("stored channel %q (%v), want sms", channel, err)
	}
}
