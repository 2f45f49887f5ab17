package mailer_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/app/messages/smstest"
	"frontdesk/db"
)

// twilio sets texts up through Twilio, its API at the test's receiver.
func (e *env) twilio() {
	e.t.Helper()
	token := smstest.AuthToken
	if err := e.s.SaveTextSettings(context.Background(), messages.TextSettingsInput{Provider: messages.SMSTwilio,
		AccountSID: smstest.AccountSID, From: smstest.From, AuthToken: &token}); err != nil {
		e.t.Fatal(err)
	}
}

// prefer gives client first a phone number and a preferred channel.
func (e *env) prefer(first, phone, channel string) {
	e.t.Helper()
	id := e.clientID(first)
	if _, err := e.db.Write.Exec(`UPDATE clients SET phone = nullif(?, '') WHERE id = ?`, phone, id); err != nil {
		e.t.Fatal(err)
	}
	if err := e.db.InTx(context.Background(), func(q *db.Queries) error {
		return messages.SetClientChannel(context.Background(), q, id, channel, db.Millis(e.now()))
	}); err != nil {
		e.t.Fatal(err)
	}
}

// waitTexts waits for n texts at the receiver.
func (e *env) waitTexts(n int) []smstest.Text {
	e.t.Helper()
	eventually(e.t, "texts", func() bool { return len(e.sms.Texts()) >= n })
	return e.sms.Texts()
}

// A client who prefers texts gets the confirmation as an SMS through Twilio — a request Twilio's
// own API description accepts — with the local time; the log shows the channel, the number and
// Twilio's id; the reminder goes by text at its time and follows a reschedule.
func TestTextsThroughTwilio(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.twilio()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, santiago)
	v := e.book("María", start)
	got := e.waitTexts(1)[0]
	if got.To != "+56961234567" || got.From != smstest.From {
		t.Errorf("text to %q from %q", got.To, got.From)
	}
	if form, _ := url.ParseQuery(got.Raw); form.Get("StatusCallback") != "https://book.example.com/twilio/status" {
		t.Errorf("StatusCallback %q, want the public URL's /twilio/status", form.Get("StatusCallback"))
	}
	if !strings.Contains(got.Body, "Studio Ana: your booking is confirmed. Haircut, Friday, 27 November 2026 at 10:00") ||
		!strings.Contains(got.Body, "https://book.example.com/") {
		t.Errorf("text %q", got.Body)
	}
	if n := len(e.received("Booking confirmed")); n != 0 {
		t.Errorf("%d confirmation emails as well, want none", n)
	}
	var conf messages.Entry
	eventually(t, "the log says sent", func() bool {
		for _, x := range e.entries(v.Booking.ID) {
			if x.Kind == messages.Confirmation && x.State == messages.StateSent {
				conf = x
				return true
			}
		}
		return false
	})
	if conf.Channel != messages.ChannelSMS || conf.To != "+56961234567" {
		t.Errorf("log entry %+v, want an SMS to the number", conf)
	}
	d, err := e.s.Message(context.Background(), conf.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Attempts[0]; a.Channel != messages.ChannelSMS || a.Code != http.StatusCreated || !strings.HasPrefix(a.Header, "SM") {
		t.Errorf("attempt %+v, want Twilio's 201 and its SM id", a)
	}
	// Pending reminders name the number they are to go to.
	for _, x := range e.entries(v.Booking.ID) {
		if x.Kind == messages.Reminder && (x.Channel != messages.ChannelSMS || x.To != "+56961234567") {
			t.Errorf("planned reminder %+v, want a text to the number", x)
		}
	}

	// A reschedule: a text saying so, and the reminder goes at the new time, by text.
	moved := time.Date(2026, 12, 4, 18, 0, 0, 0, santiago)
	if _, err := booking.Update(context.Background(), e.db, e.now(), v.Booking.ID, booking.Change{Start: &moved}, booking.SourceAdmin); err != nil {
		t.Fatal(err)
	}
	if got := e.waitTexts(2)[1]; !strings.Contains(got.Body, "moved to Friday, 4 December 2026 at 18:00") {
		t.Errorf("reschedule text %q", got.Body)
	}
	e.advance(start.Add(-24 * time.Hour))
	e.probe(time.Date(2026, 12, 10, 9, 0, 0, 0, santiago))
	if n := len(e.sms.Texts()); n != 2 {
		t.Errorf("%d texts at the old reminder time, want still 2", n)
	}
	e.advance(moved.Add(-24 * time.Hour))
	if got := e.waitTexts(3)[2]; !strings.Contains(got.Body, "reminder, Haircut Friday, 4 December 2026 at 18:00") {
		t.Errorf("reminder text %q", got.Body)
	}
}

// Twilio down: the text is retried and delivered when it is back. A number Twilio calls
// invalid fails at once, and the log says why; resend tries again.
func TestTextRetriedAndRefused(t *testing.T) {
	e := newEnv(t, envOptions{realClock: true, schedule: fast})
	e.twilio()
	e.noQuietHours()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	e.sms.FailNext(http.StatusServiceUnavailable, http.StatusServiceUnavailable)
	v := e.book("María", time.Now().Add(72*time.Hour).Truncate(time.Minute))
	e.waitTexts(1)
	eventually(t, "sent", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	d, err := e.s.Message(context.Background(), e.confirmation(v.Booking.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Attempts) != 3 || d.Attempts[0].Code != 503 || d.Attempts[0].Category != messages.CategoryTemporary ||
		d.Attempts[2].Code != 201 {
		t.Errorf("attempts %+v: want two 503s, then Twilio's 201", d.Attempts)
	}

	// Twilio's test number for "invalid": refused for good, error 21211 in the log.
	e.prefer("John", "+15005550001", messages.ChannelSMS)
	w := e.book("John", time.Now().Add(96*time.Hour).Truncate(time.Minute))
	eventually(t, "failed", func() bool { return e.confirmation(w.Booking.ID).State == messages.StateFailed })
	x := e.confirmation(w.Booking.ID)
	if x.Attempts != 1 || !strings.Contains(x.Note, "error 21211") {
		t.Errorf("refused text %+v: want one attempt, failed with Twilio's 21211", x)
	}
	before := e.sms.Attempts()
	if err := e.s.Resend(context.Background(), x.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the resend's attempt", func() bool { return e.sms.Attempts() > before })
}

// A client who prefers texts but has no number, or a number no phone has, gets email; so do
// they all while texts are not set up.
func TestTextFallsBackToEmail(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
	e.waitFor("Booking confirmed", 1) // texts not set up yet
	e.twilio()
	e.prefer("John", "", messages.ChannelSMS)
	e.book("John", time.Date(2026, 11, 27, 11, 0, 0, 0, santiago))
	e.waitFor("Booking confirmed", 2)
	e.prefer("John", "+5600000000", messages.ChannelSMS) // E.164 in shape, no such number
	e.book("John", time.Date(2026, 11, 27, 12, 0, 0, 0, santiago))
	e.waitFor("Booking confirmed", 3)
	if n := len(e.sms.Texts()); n != 0 {
		t.Errorf("%d texts, want none", n)
	}
}

// A generic HTTP gateway: the URL, method, header and body template as set, the text
// JSON-escaped in the body.
func TestTextThroughGateway(t *testing.T) {
	e := newEnv(t, envOptions{})
	key := "Bearer gw-secret"
	if err := e.s.SaveTextSettings(context.Background(), messages.TextSettingsInput{Provider: messages.SMSGateway,
		URL: e.sms.GatewayURL() + "?to={{to}}", Method: "POST", AuthName: "Authorization", AuthValue: &key,
		ContentType: "application/json", Body: `{"phone": "{{to}}", "message": "{{text}}"}`}); err != nil {
		t.Fatal(err)
	}
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	e.book("María", time.Date(2026, 11, 27, 10, 0, 0, 0, santiago))
	got := e.waitTexts(1)[0]
	if got.Method != "POST" || got.Path != "/gateway?to=%2B56961234567" || got.Header.Get("Authorization") != key ||
		got.Header.Get("Content-Type") != "application/json" {
		t.Errorf("gateway request %s %s %v", got.Method, got.Path, got.Header)
	}
	if !strings.HasPrefix(got.Raw, `{"phone": "+56961234567", "message": "Studio Ana: your booking is confirmed.`) {
		t.Errorf("gateway body %s", got.Raw)
	}
}

// A text planned while Twilio was set up, whose provider is switched off before it could go,
// goes by email instead of waiting for texts.
func TestTextFallsBackWhenTextsSwitchedOff(t *testing.T) {
	e := newEnv(t, envOptions{realClock: true, schedule: fast})
	e.twilio()
	e.noQuietHours()
	e.prefer("María", "+56961234567", messages.ChannelSMS)
	down := make([]int, 50)
	for i := range down {
		down[i] = http.StatusServiceUnavailable
	}
	e.sms.FailNext(down...)
	v := e.book("María", time.Now().Add(72*time.Hour).Truncate(time.Minute))
	eventually(t, "a failed text", func() bool { return e.confirmation(v.Booking.ID).Attempts >= 1 })
	if err := e.s.SaveTextSettings(context.Background(), messages.TextSettingsInput{Provider: messages.SMSNone}); err != nil {
		t.Fatal(err)
	}
	e.waitFor("Booking confirmed", 1)
	eventually(t, "sent", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	if x := e.confirmation(v.Booking.ID); x.Channel != messages.ChannelEmail || x.To != "maria@example.com" {
		t.Errorf("after texts were switched off: %+v, want an email to María", x)
	}
}
