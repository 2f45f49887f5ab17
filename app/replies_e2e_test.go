package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smstest"
	"frontdesk/app/messages/smtptest"
	"frontdesk/app/messages/watest"
	"frontdesk/app/replies"
	"frontdesk/app/secrets"
	"frontdesk/db"
)

// repliesWorld is a served business whose client María prefers WhatsApp: WhatsApp through the
// test's Cloud API receiver (every request checked against Meta's description), Twilio through
// smstest, email through smtptest, a webhook receiver for booking events, and a cancel policy
// that locks the last 24 hours before a start.
type repliesWorld struct {
	t        *testing.T
	dir, key string
	base     string
	wa       *watest.Server
	sms      *smstest.Server
	smtp     *smtptest.Server
	d        *db.DB // read-only use: what the server wrote

	mu     sync.Mutex
	events []string // the webhook deliveries' bodies
}

const mariaPhone = "+56961234567"

func newRepliesWorld(t *testing.T) *repliesWorld {
	t.Helper()
	return newRepliesWorldAt(t, nil)
}

// newRepliesWorldAt is newRepliesWorld served on the clock now (nil: the real one).
func newRepliesWorldAt(t *testing.T, now func() time.Time) *repliesWorld {
	t.Helper()
	dir, key := messagesSetup(t)
	w := &repliesWorld{t: t, dir: dir, key: key, wa: watest.Start(t), sms: smstest.Start(t), smtp: smtptest.Start(t)}
	recv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.mu.Lock()
		w.events = append(w.events, string(body))
		w.mu.Unlock()
		rw.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)
	if code, _, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", recv.URL+"/in", "--events", "booking.*", "--allow-private"); code != 0 {
		t.Fatalf("webhook create: exit %d, %s", code, stderr)
	}

	// The owner's settings, stored as Settings → Messages stores them (secrets sealed with the
	// data directory's key).
	ctx := context.Background()
	d, err := db.Open(ctx, db.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := messages.New(d, messages.Options{Secrets: box})
	token, secret, authToken := watest.AccessToken, watest.AppSecret, smstest.AuthToken
	if err := s.SaveWhatsAppSettings(ctx, messages.WhatsAppSettingsInput{Enabled: true, PhoneNumberID: watest.PhoneNumberID,
		VerifyToken: watest.VerifyToken, AccessToken: &token, AppSecret: &secret}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []messages.Kind{messages.Confirmation, messages.Reminder} {
		if err := s.SaveWhatsAppTemplate(ctx, messages.WhatsAppTemplate{Kind: k, Language: "en", Name: "booking_" + string(k),
			Lang: "en_US", Params: []string{"ClientFirstName", "Service", "Date", "Time"}, Buttons: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveTextSettings(ctx, messages.TextSettingsInput{Provider: messages.SMSTwilio, AccountSID: smstest.AccountSID,
		From: smstest.From, AuthToken: &authToken}); err != nil {
		t.Fatal(err)
	}
	// The real clock may be in the business's night: quiet hours would hold the texts.
	if err := s.SaveTextPolicy(ctx, messages.TextPolicyInput{DailyCap: "200", QuietStart: 21 * 60, QuietEnd: 8 * 60,
		ByText: allByText()}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE clients SET phone = ? WHERE id = 1`, mariaPhone); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write.Exec(`UPDATE company SET edit_lock_min = 1440`); err != nil {
		t.Fatal(err)
	}
	if err := d.InTx(ctx, func(q *db.Queries) error {
		return messages.SetClientChannel(ctx, q, 1, messages.ChannelWhatsApp, db.Millis(time.Now()))
	}); err != nil {
		t.Fatal(err)
	}
	w.d = d
	t.Cleanup(func() { d.Close() })

	smtpURL := "smtp://" + w.smtp.Host() + ":" + strconv.Itoa(w.smtp.Port()) + "?starttls=off"
	srv := serveInProcessAt(t, dir, now, []string{"--addr", "127.0.0.1:0", "--webhook-allow-private",
		"--message-retry-schedule", "0s,100ms,200ms,400ms,800ms"},
		"FRONTDESK_SMTP_URL="+smtpURL, "FRONTDESK_MAIL_FROM=Studio Ana <hola@studio-ana.example>",
		"FRONTDESK_WHATSAPP_API_URL="+w.wa.URL, "FRONTDESK_TWILIO_API_URL="+w.sms.URL)
	w.base = srv.URL
	return w
}

// book books María at start through POST /v3/bookings and returns the booking's id.
func (w *repliesWorld) book(start time.Time) int64 {
	w.t.Helper()
	body := `{"location_id":1,"service_id":1,"provider_id":1,"client_id":1,"status_id":1,"start_time":"` + start.Format(time.RFC3339) + `"}`
	raw := w.call(http.MethodPost, "/v3/bookings", body, http.StatusCreated)
	var b struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		w.t.Fatal(err)
	}
	return b.ID
}

func (w *repliesWorld) call(method, path, body string, want int) []byte {
	w.t.Helper()
	req, _ := http.NewRequest(method, w.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+w.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		w.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return raw
}

// booking is GET /v3/bookings/{id}'s status and client_confirmed_at.
func (w *repliesWorld) booking(id int64) (status int64, confirmedAt *string) {
	w.t.Helper()
	var b struct {
		StatusID          int64   `json:"status_id"`
		ClientConfirmedAt *string `json:"client_confirmed_at"`
	}
	if err := json.Unmarshal(w.call(http.MethodGet, "/v3/bookings/"+strconv.FormatInt(id, 10), "", http.StatusOK), &b); err != nil {
		w.t.Fatal(err)
	}
	return b.StatusID, b.ClientConfirmedAt
}

// waitWhatsApp waits for n messages at the Cloud API receiver.
func (w *repliesWorld) waitWhatsApp(n int) []watest.Message {
	w.t.Helper()
	waitFor(w.t, fmt.Sprintf("%d WhatsApp messages", n), func() bool { return len(w.wa.Messages()) >= n })
	return w.wa.Messages()
}

// waitSent waits until the message of kind about booking id is recorded sent (the reply
// engine finds the booking by the last text that went).
func (w *repliesWorld) waitSent(id int64) {
	w.t.Helper()
	waitFor(w.t, "the text recorded as sent", func() bool {
		var n int
		w.d.Read.QueryRow(`SELECT count(*) FROM messages WHERE booking_id = ? AND channel = 'whatsapp' AND state = 'sent'`, id).Scan(&n)
		return n > 0
	})
}

// twilio posts an incoming text as Twilio does, signed with sign (the auth token; "" unsigned).
func (w *repliesWorld) twilio(path, sign string, form url.Values) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if sign != "" {
		req.Header.Set("X-Twilio-Signature", replies.TwilioSignature(sign, w.base+path, form))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

func smsForm(sid, body string) url.Values {
	return url.Values{"MessageSid": {sid}, "AccountSid": {smstest.AccountSID}, "From": {mariaPhone}, "To": {smstest.From},
		"Body": {body}, "NumMedia": {"0"}}
}

// whatsApp posts a notification as Meta does, signed with secret ("" unsigned), after checking
// it against the description's webhook payload.
func (w *repliesWorld) whatsApp(secret string, body string) int {
	w.t.Helper()
	w.wa.CheckNotification([]byte(body))
	req, _ := http.NewRequest(http.MethodPost, w.base+"/whatsapp/webhook", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("X-Hub-Signature-256", replies.MetaSignature(secret, []byte(body)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// buttonNotification is a client pressing a quick-reply button of a template.
func buttonNotification(id, payload, text, replyTo string) string {
	return `{"object":"whatsapp_business_account","entry":[{"id":"419561257915477","changes":[{"field":"messages","value":{` +
		`"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"` + watest.PhoneNumberID + `"},` +
		`"contacts":[{"profile":{"name":"María"},"wa_id":"56961234567"}],` +
		`"messages":[{"from":"56961234567","id":"` + id + `","timestamp":"1750016800","type":"button",` +
		`"context":{"from":"15550783881","id":"` + replyTo + `"},` +
		`"button":{"payload":"` + payload + `","text":"` + text + `"}}]}}]}]}`
}

// bookingEvent is a webhook delivery's envelope, as much as the test reads.
type bookingEvent struct {
	Type string `json:"type"`
	Data struct {
		ID       int64 `json:"id"`
		StatusID int64 `json:"status_id"`
	} `json:"data"`
}

// bookingEvents are the webhook deliveries about booking id.
func (w *repliesWorld) bookingEvents(id int64) []bookingEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []bookingEvent
	for _, raw := range w.events {
		var e bookingEvent
		if json.Unmarshal([]byte(raw), &e) == nil && e.Data.ID == id {
			out = append(out, e)
		}
	}
	return out
}

// allByText lets every client message go by text (the rules' default).
func allByText() map[messages.Kind]bool {
	out := map[messages.Kind]bool{}
	for _, k := range messages.TextKinds() {
		out[k] = true
	}
	return out
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The acceptance of replies that act, end to end: a booking made through /v3 for a client who
// prefers WhatsApp produces one template message with the right local time; the Confirm button
// confirms it (client_confirmed_at in /v3); a forged or unsigned reply is refused with 403 and
// changes nothing; a signed "2" by SMS cancels within the policy (the booking is cancelled,
// booking.updated is delivered, the time is offered again) and the same request again does
// nothing more; a "2" inside the lock window is refused with the reason sent back; "STOP"
// stops texts, so the next confirmation goes by email.
func TestRepliesActEndToEnd(t *testing.T) {
	w := newRepliesWorld(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 3)
	start := time.Date(day.Year(), day.Month(), day.Day(), 15, 30, 0, 0, santiago)
	a := w.book(start)

	msgs := w.waitWhatsApp(1)
	got := msgs[0]
	if got.Type != "template" || got.Template != "booking_confirmation" || got.Lang != "en_US" || got.To != strings.TrimPrefix(mariaPhone, "+") {
		t.Errorf("WhatsApp message %+v, want the confirmation template to María", got)
	}
	if len(got.Params) != 4 || got.Params[0] != "María" || got.Params[1] != "Haircut" || got.Params[3] != "15:30" ||
		!strings.Contains(got.Params[2], strconv.Itoa(start.Day())) {
		t.Errorf("template parameters %q, want María, Haircut, the date and the local time 15:30", got.Params)
	}
	if len(got.Payloads) != 2 || got.Payloads[0] != replies.ButtonConfirm || got.Payloads[1] != replies.ButtonCancel {
		t.Errorf("quick-reply payloads %q, want Confirm and Cancel", got.Payloads)
	}
	if n := len(w.smtp.Messages()); n != 0 {
		t.Errorf("%d emails as well, want none", n)
	}
	if n := len(w.waitWhatsApp(1)); n != 1 {
		t.Errorf("%d WhatsApp messages, want one", n)
	}
	w.waitSent(a)

	// The webhook handshake: the verify token echoes the challenge, another is refused.
	resp, err := http.Get(w.base + "/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=" + watest.VerifyToken + "&hub.challenge=1158201444")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(raw) != "1158201444" {
		t.Errorf("verification: %d %q, want 200 and the challenge", resp.StatusCode, raw)
	}
	if resp, err := http.Get(w.base + "/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1"); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("verification with a wrong token: %v %v, want 403", resp.StatusCode, err)
	}

	// Forged and unsigned: 403, nothing changes.
	confirm := buttonNotification("wamid.CONFIRM1", replies.ButtonConfirm, "Confirm", watest.WAMID(1))
	if code := w.whatsApp("not-the-secret", confirm); code != http.StatusForbidden {
		t.Errorf("forged WhatsApp notification: %d, want 403", code)
	}
	if code := w.whatsApp("", confirm); code != http.StatusForbidden {
		t.Errorf("unsigned WhatsApp notification: %d, want 403", code)
	}
	if code, _ := w.twilio("/twilio/sms", "", smsForm("SMforged1", "2")); code != http.StatusForbidden {
		t.Errorf("unsigned Twilio text: %d, want 403", code)
	}
	if code, _ := w.twilio("/twilio/sms", "wrong-token", smsForm("SMforged2", "2")); code != http.StatusForbidden {
		t.Errorf("forged Twilio text: %d, want 403", code)
	}
	if status, confirmed := w.booking(a); status != 1 || confirmed != nil {
		t.Fatalf("after forged replies: status %d, confirmed %v; want 1 and not confirmed", status, confirmed)
	}
	var n int
	w.d.Read.QueryRow(`SELECT count(*) FROM inbound_messages`).Scan(&n)
	if n != 0 {
		t.Errorf("%d inbound messages recorded from forged requests, want 0", n)
	}

	// Confirm: "1" by SMS, signed; then WhatsApp's Confirm button, which finds it confirmed.
	code, twiml := w.twilio("/twilio/sms", smstest.AuthToken, smsForm("SMconfirm1", "1"))
	if code != http.StatusOK || !strings.Contains(twiml, "is confirmed") {
		t.Errorf("signed 1: %d %s", code, twiml)
	}
	if _, confirmed := w.booking(a); confirmed == nil {
		t.Errorf("after 1: client_confirmed_at is null")
	}
	if code := w.whatsApp(watest.AppSecret, confirm); code != http.StatusOK {
		t.Fatalf("signed Confirm: %d", code)
	}
	if _, confirmed := w.booking(a); confirmed == nil {
		t.Errorf("after Confirm: client_confirmed_at is null")
	}
	answer := w.waitWhatsApp(2)[1]
	if answer.Type != "text" || !strings.Contains(answer.Text, "is confirmed") {
		t.Errorf("answer to Confirm %+v", answer)
	}

	// Cancel within the policy, by SMS: cancelled, booking.updated delivered, the time offered again.
	slotsPath := "/v3/available_slots?" + url.Values{"location_id": {"1"}, "service_id": {"1"}, "provider_id": {"1"},
		"start_date": {start.Format(time.DateOnly)}}.Encode()
	offered := `"starts_at":"` + start.Format(time.RFC3339) + `"`
	if strings.Contains(string(w.call(http.MethodGet, slotsPath, "", http.StatusOK)), offered) {
		t.Fatalf("15:30 offered while booked")
	}
	cancel := smsForm("SM0000000000000000000000000000cancel", " Cancelar ")
	code, twiml = w.twilio("/twilio/sms", smstest.AuthToken, cancel)
	if code != http.StatusOK || !strings.Contains(twiml, "<Message>") || !strings.Contains(twiml, "is cancelled") {
		t.Errorf("signed CANCELAR: %d %s", code, twiml)
	}
	if status, _ := w.booking(a); status != 5 {
		t.Errorf("after CANCELAR: status %d, want 5 (cancelled)", status)
	}
	waitFor(t, "booking.updated delivered", func() bool {
		for _, e := range w.bookingEvents(a) {
			if e.Type == "booking.updated" && e.Data.StatusID == 5 {
				return true
			}
		}
		return false
	})
	if !strings.Contains(string(w.call(http.MethodGet, slotsPath, "", http.StatusOK)), offered) {
		t.Errorf("15:30 not offered again after the cancel")
	}
	// The same signed request again: acts once (no second event, no second row, no answer).
	events := len(w.bookingEvents(a))
	code, twiml = w.twilio("/twilio/sms", smstest.AuthToken, cancel)
	if code != http.StatusOK || strings.Contains(twiml, "<Message>") {
		t.Errorf("replayed CANCELAR: %d %s, want 200 and no answer", code, twiml)
	}
	w.d.Read.QueryRow(`SELECT count(*) FROM inbound_messages WHERE provider_id = ?`, cancel.Get("MessageSid")).Scan(&n)
	if n != 1 {
		t.Errorf("%d inbound rows for one MessageSid, want 1", n)
	}

	// Outside the policy (inside the 24-hour lock): refused, the reason sent back.
	soon := time.Now().In(santiago).Add(3 * time.Hour).Truncate(15 * time.Minute)
	b := w.book(soon)
	w.waitWhatsApp(3)
	w.waitSent(b)
	if code := w.whatsApp(watest.AppSecret, buttonNotification("wamid.CANCEL2", replies.ButtonCancel, "Cancel", watest.WAMID(3))); code != http.StatusOK {
		t.Fatalf("signed Cancel: %d", code)
	}
	if status, _ := w.booking(b); status != 1 {
		t.Errorf("Cancel inside the lock window: status %d, want still 1", status)
	}
	refusal := w.waitWhatsApp(4)[3]
	if refusal.Type != "text" || !strings.Contains(refusal.Text, "cannot be cancelled by text") || !strings.Contains(refusal.Text, "too close to the start") {
		t.Errorf("refusal %+v, want the reason", refusal)
	}
	if len(w.bookingEvents(a)) != events {
		t.Errorf("the replay delivered another event")
	}

	// STOP: the number is opted out, and the next confirmation goes by email.
	code, twiml = w.twilio("/twilio/sms", smstest.AuthToken, smsForm("SMstop", "stop"))
	if code != http.StatusOK || !strings.Contains(twiml, "no more texts") {
		t.Errorf("STOP: %d %s", code, twiml)
	}
	w.book(start.AddDate(0, 0, 1))
	waitFor(t, "the confirmation by email", func() bool {
		for _, m := range w.smtp.Messages() {
			if strings.Contains(string(m.Data), "Booking confirmed") {
				return true
			}
		}
		return false
	})
	if n := len(w.wa.Messages()); n != 4 {
		t.Errorf("%d WhatsApp messages after STOP, want still 4", n)
	}
}

// Status callbacks: Twilio's (signed) and WhatsApp's move the log's delivery status forward
// only; a forged callback is refused and changes nothing.
func TestDeliveryStatusCallbacks(t *testing.T) {
	w := newRepliesWorld(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	a := w.book(time.Now().In(santiago).AddDate(0, 0, 4).Truncate(time.Hour))
	w.waitWhatsApp(1)
	w.waitSent(a)
	status := func() string {
		var s string
		w.d.Read.QueryRow(`SELECT delivery_status FROM messages WHERE booking_id = ? AND channel = 'whatsapp'`, a).Scan(&s)
		return s
	}
	notify := func(st string) string {
		return `{"object":"whatsapp_business_account","entry":[{"id":"419561257915477","changes":[{"field":"messages","value":{` +
			`"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"` + watest.PhoneNumberID + `"},` +
			`"statuses":[{"id":"` + watest.WAMID(1) + `","status":"` + st + `","timestamp":"1750016800","recipient_id":"56961234567"}]}}]}]}`
	}
	if code := w.whatsApp("forged", notify("read")); code != http.StatusForbidden || status() != "" {
		t.Errorf("forged status: %d, delivery %q", code, status())
	}
	for _, st := range []string{"delivered", "sent", "read"} {
		if code := w.whatsApp(watest.AppSecret, notify(st)); code != http.StatusOK {
			t.Fatalf("status %s: %d", st, code)
		}
	}
	if got := status(); got != "read" {
		t.Errorf("delivery %q after delivered, sent, read; want read", got)
	}

	// Twilio: a text's callbacks, by its SM id.
	var id int64
	w.d.Read.QueryRow(`SELECT id FROM messages WHERE booking_id = ? AND channel = 'whatsapp'`, a).Scan(&id)
	if _, err := w.d.Write.Exec(`UPDATE message_attempts SET message_id_header = 'SM123', channel = 'sms' WHERE message_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.d.Write.Exec(`UPDATE messages SET delivery_status = '' WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"MessageSid": {"SM123"}, "MessageStatus": {"undelivered"}, "ErrorCode": {"30003"}, "AccountSid": {smstest.AccountSID}}
	if code, _ := w.twilio("/twilio/status", "wrong", form); code != http.StatusForbidden || status() != "" {
		t.Errorf("forged Twilio callback: %d, delivery %q", code, status())
	}
	if code, _ := w.twilio("/twilio/status", smstest.AuthToken, form); code != http.StatusNoContent {
		t.Errorf("Twilio callback: %d", code)
	}
	var note string
	w.d.Read.QueryRow(`SELECT delivery_note FROM messages WHERE id = ?`, id).Scan(&note)
	if status() != "undelivered" || note != "error 30003" {
		t.Errorf("after Twilio's callback: %q %q", status(), note)
	}
}

// A WhatsApp button acts on the booking of the message whose button was pressed (the
// notification's context.id), not on the client's latest message: María has two bookings,
// each confirmed by WhatsApp; Confirm on the first one's message confirms the first, Cancel on
// it cancels the first, and the second, whose message went last, is left as it was.
func TestWhatsAppButtonActsOnItsMessage(t *testing.T) {
	w := newRepliesWorld(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 5)
	first := w.book(time.Date(day.Year(), day.Month(), day.Day(), 10, 0, 0, 0, santiago))
	w.waitWhatsApp(1)
	w.waitSent(first)
	second := w.book(time.Date(day.Year(), day.Month(), day.Day(), 16, 0, 0, 0, santiago))
	w.waitWhatsApp(2)
	w.waitSent(second)

	if code := w.whatsApp(watest.AppSecret, buttonNotification("wamid.PRESS1", replies.ButtonConfirm, "Confirm", watest.WAMID(1))); code != http.StatusOK {
		t.Fatalf("Confirm: %d", code)
	}
	if _, confirmed := w.booking(first); confirmed == nil {
		t.Errorf("Confirm on the first booking's message: the first booking is not confirmed")
	}
	if _, confirmed := w.booking(second); confirmed != nil {
		t.Errorf("Confirm on the first booking's message confirmed the second (the latest message's)")
	}
	if code := w.whatsApp(watest.AppSecret, buttonNotification("wamid.PRESS2", replies.ButtonCancel, "Cancel", watest.WAMID(1))); code != http.StatusOK {
		t.Fatalf("Cancel: %d", code)
	}
	if status, _ := w.booking(first); status != 5 {
		t.Errorf("Cancel on the first booking's message: its status %d, want 5 (cancelled)", status)
	}
	if status, _ := w.booking(second); status != 1 {
		t.Errorf("Cancel on the first booking's message: the second's status %d, want still 1", status)
	}
	var n int
	w.d.Read.QueryRow(`SELECT count(*) FROM inbound_messages WHERE booking_id = ?`, first).Scan(&n)
	if n != 2 {
		t.Errorf("%d inbound messages recorded against the first booking, want 2", n)
	}
}

// The answer to a WhatsApp reply goes through the messages outbox: with the Cloud API down when
// the client presses Confirm, the answer is retried and delivered once the API is back, and the
// message log has it (kind reply, every attempt), like any message.
func TestWhatsAppAnswerThroughTheOutbox(t *testing.T) {
	w := newRepliesWorld(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	a := w.book(time.Now().In(santiago).AddDate(0, 0, 6).Truncate(time.Hour))
	w.waitWhatsApp(1)
	w.waitSent(a)
	w.wa.FailNext(http.StatusServiceUnavailable, http.StatusInternalServerError)
	if code := w.whatsApp(watest.AppSecret, buttonNotification("wamid.ANSWER1", replies.ButtonConfirm, "Confirm", watest.WAMID(1))); code != http.StatusOK {
		t.Fatalf("Confirm: %d", code)
	}
	if _, confirmed := w.booking(a); confirmed == nil {
		t.Errorf("Confirm: the booking is not confirmed")
	}
	answer := w.waitWhatsApp(2)[1]
	if answer.Type != "text" || !strings.Contains(answer.Text, "is confirmed") || answer.To != strings.TrimPrefix(mariaPhone, "+") {
		t.Errorf("answer %+v, want the confirmation's text to María", answer)
	}
	var id int64
	var state string
	waitFor(t, "the answer recorded as sent", func() bool {
		return w.d.Read.QueryRow(`SELECT id, state FROM messages WHERE kind = 'reply'`).Scan(&id, &state) == nil && state == "sent"
	})
	rows, err := w.d.Read.Query(`SELECT code, channel FROM message_attempts WHERE message_id = ? ORDER BY attempt`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var codes []int
	for rows.Next() {
		var code int
		var channel string
		if err := rows.Scan(&code, &channel); err != nil {
			t.Fatal(err)
		}
		if channel != "whatsapp" {
			t.Errorf("attempt by %s, want whatsapp", channel)
		}
		codes = append(codes, code)
	}
	if fmt.Sprint(codes) != "[503 500 200]" {
		t.Errorf("the answer's attempts %v, want [503 500 200]", codes)
	}
	if n := len(w.wa.Messages()); n != 2 {
		t.Errorf("%d WhatsApp messages, want the confirmation and one answer", n)
	}
}

// Settings → Messages → Replies: with copies off (the default) a client's message reaches no
// one by email; switched on, every message a client sends — here a question the engine leaves
// for the team, and a Confirm with its answer — is copied to the owner by email through the
// outbox, saying who wrote, by which channel, what, and what was answered.
func TestRepliesCopiedToTheOwner(t *testing.T) {
	w := newRepliesWorld(t)
	santiago, _ := time.LoadLocation("America/Santiago")
	a := w.book(time.Now().In(santiago).AddDate(0, 0, 6).Truncate(time.Hour))
	w.waitWhatsApp(1)
	w.waitSent(a)
	question := func(id, text string) string {
		return `{"object":"whatsapp_business_account","entry":[{"id":"419561257915477","changes":[{"field":"messages","value":{` +
			`"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"` + watest.PhoneNumberID + `"},` +
			`"contacts":[{"profile":{"name":"María"},"wa_id":"56961234567"}],` +
			`"messages":[{"from":"56961234567","id":"` + id + `","timestamp":"1750016800","type":"text","text":{"body":"` + text + `"}}]}}]}]}`
	}
	if code := w.whatsApp(watest.AppSecret, question("wamid.Q1", "Can I bring my dog?")); code != http.StatusOK {
		t.Fatalf("question: %d", code)
	}
	var copies int
	w.d.Read.QueryRow(`SELECT count(*) FROM messages WHERE kind = 'reply' AND recipient = 'owner'`).Scan(&copies)
	if copies != 0 {
		t.Errorf("%d owner copies while copies are off, want none", copies)
	}

	s := messages.New(w.d, messages.Options{})
	if on, err := s.ReplyCopies(context.Background()); err != nil || on {
		t.Fatalf("copies %v (%v), want off by default", on, err)
	}
	if err := s.SaveReplyCopies(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if _, err := w.d.Write.Exec(`UPDATE message_settings SET owner_address = 'owner@studio-ana.example'`); err != nil {
		t.Fatal(err)
	}
	if code := w.whatsApp(watest.AppSecret, question("wamid.Q2", "Is there parking?")); code != http.StatusOK {
		t.Fatalf("question: %d", code)
	}
	if code := w.whatsApp(watest.AppSecret, buttonNotification("wamid.Q3", replies.ButtonConfirm, "Confirm", watest.WAMID(1))); code != http.StatusOK {
		t.Fatalf("Confirm: %d", code)
	}
	copied := func() []smtptest.Parsed {
		var out []smtptest.Parsed
		for _, m := range w.smtp.Messages() {
			p, err := smtptest.Parse(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(p.Subject, "Message from") {
				out = append(out, p)
			}
		}
		return out
	}
	waitFor(t, "two copies to the owner", func() bool { return len(copied()) >= 2 })
	var parking, confirm bool
	for _, p := range copied() {
		if p.Subject != "Message from María López ("+mariaPhone+")" || !strings.Contains(p.Text, "wrote by WhatsApp") ||
			!strings.Contains(p.Header.Get("To"), "owner@studio-ana.example") {
			t.Errorf("copy %q:\n%s", p.Subject, p.Text)
		}
		parking = parking || strings.Contains(p.Text, "Is there parking?")
		confirm = confirm || strings.Contains(p.Text, "Confirm") && strings.Contains(p.Text, "We answered: Thank you")
		if strings.Contains(p.Text, "dog") {
			t.Errorf("a message from before copies were on was copied")
		}
	}
	if !parking || !confirm {
		t.Errorf("copies: the question %v, the Confirm with its answer %v; want both", parking, confirm)
	}
}
