package admin_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app"
	"frontdesk/app/messages"
	"frontdesk/app/messages/smstest"
	"frontdesk/app/messages/smtptest"
	"frontdesk/db"
)

// Texts end to end: the owner sets Twilio up on Settings → Messages → Texts (its token sealed,
// never shown again) and sends a test text; the client form refuses a number that is not one,
// with an example, and a text preference without a mobile; a booking made through /v3 for a
// client who prefers texts is texted — a request Twilio's own API description accepts — with
// the local time, after a failed attempt is retried, and the log shows the text, the number
// and Twilio's answers; a client with a number no phone has is marked not textable.
func TestTextsEndToEnd(t *testing.T) {
	sms := smstest.Start(t)
	smtp := smtptest.Start(t)
	ts := startServer(t, "FRONTDESK_TWILIO_API_URL="+sms.URL,
		"FRONTDESK_SMTP_URL=smtp://"+smtp.Host()+":"+strconv.Itoa(smtp.Port())+"?starttls=off",
		"FRONTDESK_MAIL_FROM=Studio Ana <hola@studio-ana.example>", "FRONTDESK_MESSAGE_RETRY_SCHEDULE=0s,100ms,200ms")
	c := ts.setupOwner(t)
	ctx := context.Background()
	if code := app.Run(ctx, app.Env{Args: []string{"import", "--data", ts.Data, filepath.Join("..", "messages", "testdata", "business.json")},
		Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
		t.Fatalf("import: exit %d", code)
	}
	var keyOut bytes.Buffer
	if code := app.Run(ctx, app.Env{Args: []string{"apikey", "create", "--data", ts.Data, "--name", "texts", "--full-access"},
		Getenv: func(string) string { return "" }, Stdout: &keyOut, Stderr: io.Discard}); code != 0 {
		t.Fatalf("apikey create: exit %d", code)
	}
	key := strings.TrimSpace(keyOut.String())
	d, err := db.Open(ctx, filepath.Join(ts.Data, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })

	// Settings → Messages → Texts.
	wantBody(t, c.get(t, "/settings/messages/texts"), `data-testid="texts-not-ready"`, `data-testid="texts-form"`)
	res := c.post(t, "/settings/messages/texts", url.Values{"provider": {messages.SMSTwilio}, "account_sid": {"AC123"},
		"from": {smstest.From}, "auth_token": {smstest.AuthToken}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-account_sid"`)
	good := url.Values{"provider": {messages.SMSTwilio}, "account_sid": {smstest.AccountSID}, "from": {smstest.From},
		"auth_token": {smstest.AuthToken}, "method": {"POST"}}
	wantRedirect(t, c.post(t, "/settings/messages/texts", good), "/settings/messages/texts")
	page := c.get(t, "/settings/messages/texts")
	wantBody(t, page, `data-testid="texts-ready"`, "A password is stored")
	if strings.Contains(page.Body, smstest.AuthToken) {
		t.Errorf("the texts page shows the stored token")
	}
	var sealed string
	if err := d.Read.QueryRow("SELECT twilio_auth_token_sealed FROM message_text_settings").Scan(&sealed); err != nil ||
		!strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, smstest.AuthToken) {
		t.Errorf("stored token %q (%v), want it sealed", sealed, err)
	}
	// A test text goes only to a client's number or the business's own: a number of no one is
	// refused and nothing is texted.
	res = c.post(t, "/settings/messages/texts/test", url.Values{"to": {"9 6123 4567"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-to"`, "only to a client")
	if got := sms.Texts(); len(got) != 0 {
		t.Fatalf("a test text to a number of no one was sent: %+v", got)
	}
	// The location's phone, stored the local way, is the business's own: a test text to it,
	// typed the Chilean way (the location is in Chile), goes.
	if _, err := d.Write.Exec(`UPDATE locations SET phone = '(9) 6123 4567' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, c.post(t, "/settings/messages/texts/test", url.Values{"to": {"9 6123 4567"}}), "/settings/messages/texts")
	if got := sms.Texts(); len(got) != 1 || got[0].To != "+56961234567" || !strings.Contains(got[0].Body, "test text") {
		t.Fatalf("test text: %+v", got)
	}
	res = c.post(t, "/settings/messages/texts/test", url.Values{"to": {"123"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, "For example: +56 ")

	// The client form: a number that is not one is refused with an example; texts need a
	// mobile; a good number typed the local way is stored in E.164.
	maria := url.Values{"first_name": {"María"}, "last_name": {"López"}, "email": {"maria@example.com"}, "gender": {"0"},
		"phone": {"123 45"}, "message_channel": {messages.ChannelSMS}}
	res = c.post(t, "/clients/1", maria)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-phone"`, "For example: +56 ")
	maria.Set("phone", "")
	res = c.post(t, "/clients/1", maria)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-message_channel"`)
	maria.Set("phone", "9 6123 4567")
	wantRedirect(t, c.post(t, "/clients/1", maria), "/clients/1")
	var phone, channel string
	if err := d.Read.QueryRow(`SELECT c.phone, p.channel FROM clients c JOIN client_message_prefs p ON p.client_id = c.id
		WHERE c.id = 1`).Scan(&phone, &channel); err != nil || phone != "+56961234567" || channel != messages.ChannelSMS {
		t.Fatalf("stored phone %q channel %q (%v)", phone, channel, err)
	}

	// Settings → Messages → Rules for texts: a bad cap and a bad time are refused with the
	// fields marked and nothing saved; the quiet hours are switched off (this test runs on the
	// real clock, which may be in them).
	rules := url.Values{"daily_cap": {"0"}, "quiet_enabled": {"1"}, "quiet_start": {"25:00"}, "quiet_end": {"08:00"},
		"by_text": {"confirmation", "reminder"}, "price": {"40000"}}
	res = c.post(t, "/settings/messages/rules", rules)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-daily_cap"`, `data-testid="error-quiet_start"`)
	var capN int64
	var quiet bool
	if err := d.Read.QueryRow(`SELECT daily_cap, quiet_enabled FROM message_text_policy`).Scan(&capN, &quiet); err != nil ||
		capN != messages.DefaultDailyCap || !quiet {
		t.Fatalf("a refused save changed the rules: cap %d quiet %v (%v)", capN, quiet, err)
	}
	rules = url.Values{"daily_cap": {"50"}, "quiet_start": {"21:00"}, "quiet_end": {"08:00"},
		"by_text": {"confirmation", "reminder"}, "price": {"40000"}}
	wantRedirect(t, c.post(t, "/settings/messages/rules", rules), "/settings/messages/rules")
	wantBody(t, c.get(t, "/settings/messages/rules"), `value="50"`, `value="40000"`, "Texts sent today: 0 of 50.")
	var changes string
	if err := d.Read.QueryRow(`SELECT changes FROM activity WHERE entity = 'settings.messages' ORDER BY id DESC LIMIT 1`).Scan(&changes); err != nil ||
		!strings.Contains(changes, "daily_cap") || !strings.Contains(changes, "kind.cancelled.by_text") {
		t.Errorf("activity of the rules' save: %s (%v)", changes, err)
	}

	// A booking through /v3: Twilio fails once, the retry delivers the text with the local time.
	sms.FailNext(http.StatusServiceUnavailable)
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 15, 30, 0, 0, santiago)
	body := `{"location_id":1,"service_id":1,"provider_id":1,"client_id":1,"status_id":1,"start_time":"` + start.Format(time.RFC3339) + `"}`
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v3/bookings", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v3/bookings: %d", resp.StatusCode)
	}
	waitFor(t, "the confirmation text", func() bool { return len(sms.Texts()) == 2 })
	got := sms.Texts()[1]
	if got.To != "+56961234567" || !strings.Contains(got.Body, "your booking is confirmed. Haircut") || !strings.Contains(got.Body, "at 15:30") {
		t.Errorf("confirmation text to %s: %q", got.To, got.Body)
	}
	if n := len(smtp.Messages()); n != 0 {
		t.Errorf("%d emails as well, want none", n)
	}
	var id int64
	if err := d.Read.QueryRow("SELECT id FROM messages WHERE kind = 'confirmation' AND channel = 'sms'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "sent in the log", func() bool {
		return strings.Contains(c.get(t, "/settings/messages/log?state=sent").Body, "+56961234567")
	})
	wantBody(t, c.get(t, "/settings/messages/log/"+strconv.FormatInt(id, 10)), "503", "201 queued SM", "Text message (SMS)")
	// Its parts and estimated cost (40,000 pesos per 1,000 segments: 40 a segment), and the
	// month's count for the owner.
	seg := messages.Segment(got.Body).Segments
	wantBody(t, c.get(t, "/settings/messages/log/"+strconv.FormatInt(id, 10)), `data-testid="message-cost"`,
		strconv.Itoa(seg)+" segments · about $"+strconv.Itoa(40*seg)+"<")
	wantBody(t, c.get(t, "/settings/messages/rules"), `data-testid="months"`, "Text message (SMS)", "Texts sent today: 1 of 50.")

	// The short text is the owner's to word, per type and language: a broken one is shown with
	// its error and not saved; a saved one is what a resend texts.
	tpl := "/settings/messages/templates/confirmation/en"
	wantBody(t, c.get(t, tpl), `data-testid="message-text-form"`, `data-testid="text-preview"`)
	res = c.post(t, tpl+"/text", url.Values{"text": {"Hi {{.Nmae}}"}, "action": {"save"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="text-preview-error"`, "{{.Nmae}} is not a field")
	wantRedirect(t, c.post(t, tpl+"/text", url.Values{"text": {"Hi {{.ClientFirstName}}: {{.Service}} at {{.Time}}"}, "action": {"save"}}), tpl+"#text")
	detail := "/settings/messages/log/" + strconv.FormatInt(id, 10)
	wantRedirect(t, c.post(t, detail+"/resend", nil), detail)
	waitFor(t, "the resent text", func() bool { return len(sms.Texts()) == 3 })
	if got := sms.Texts()[2].Body; got != "Hi María: Haircut at 15:30" {
		t.Errorf("resent text %q, want the owner's wording", got)
	}

	// John's number has the shape /v3 accepts but no phone has it: the form says so, and he
	// gets email.
	if _, err := d.Write.Exec("UPDATE clients SET phone = '+5600000000' WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/clients/2"), `data-testid="phone-not-textable"`)
}
