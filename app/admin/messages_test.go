package admin_test

import (
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
	"frontdesk/app/booking"
	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
	"frontdesk/db"
)

// Settings → Messages end to end: SMTP settings refuse header injection and then work, the test
// email reaches a real SMTP server, a broken template is shown with its error and not saved, a
// booking's page lists its messages, and a 5xx shows in the log and resend delivers. (The
// reminder opt-out page is app/customer's: unsubscribe_test.go there.)
func TestMessagesPages(t *testing.T) {
	smtp := smtptest.Start(t)
	ts := startServer(t)
	c := ts.setupOwner(t)
	ctx := context.Background()

	wantBody(t, c.get(t, "/settings/messages"), `data-testid="messages-not-ready"`)
	bad := url.Values{"host": {smtp.Host()}, "port": {strconv.Itoa(smtp.Port())}, "security": {messages.SecurityOff},
		"from_name": {"Studio\r\nBcc: evil@example.net"}, "from_address": {"hola@studio-ana.example"}}
	res := c.post(t, "/settings/messages/transport", bad)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="error-from_name"`)
	good := url.Values{"host": {smtp.Host()}, "port": {strconv.Itoa(smtp.Port())}, "security": {messages.SecurityOff},
		"from_name": {"Studio Ana"}, "from_address": {"hola@studio-ana.example"}, "password": {"s3cret-pass"},
		"username": {""}}
	wantRedirect(t, c.post(t, "/settings/messages/transport", good), "/settings/messages")
	page := c.get(t, "/settings/messages")
	wantBody(t, page, `data-testid="messages-ready"`, "A password is stored")
	if strings.Contains(page.Body, "s3cret-pass") {
		t.Errorf("the settings page shows the stored password")
	}
	d, err := db.Open(ctx, filepath.Join(ts.Data, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var sealed string
	if err := d.Read.QueryRow("SELECT smtp_password_sealed FROM message_settings").Scan(&sealed); err != nil || strings.Contains(sealed, "s3cret") || sealed == "" {
		t.Errorf("stored password %q (%v), want it sealed", sealed, err)
	}

	res = c.post(t, "/settings/messages/test", url.Values{"to": {"owner@example.com"}})
	wantRedirect(t, res, "/settings/messages")
	wantBody(t, c.get(t, "/settings/messages"), "accepted the test email to owner@example.com")
	if got := smtp.Messages(); len(got) != 1 || got[0].To[0] != "owner@example.com" {
		t.Fatalf("test email: %+v", got)
	}

	// A template with an unknown field: shown with its error, not saved.
	tpl := "/settings/messages/templates/confirmation/en"
	res = c.post(t, tpl, url.Values{"subject": {"Hi {{.Nmae}}"}, "body": {"x"}, "action": {"save"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	wantBody(t, res, `data-testid="preview-error"`, "{{.Nmae}} is not a field")
	wantBody(t, c.get(t, tpl), "Booking confirmed: {{.Service}}")
	res = c.post(t, tpl, url.Values{"subject": {"Confirmed {{.Time}}"}, "body": {"See you {{.When}}"}, "action": {"preview"}})
	wantBody(t, res, `data-testid="preview"`, "Confirmed 10:30")

	// A booking: its page lists the confirmation (sent) and the planned reminders.
	if code := app.Run(ctx, app.Env{Args: []string{"import", "--data", ts.Data, filepath.Join("..", "messages", "testdata", "business.json")},
		Getenv: func(string) string { return "" }, Stdout: io.Discard, Stderr: io.Discard}); code != 0 {
		t.Fatalf("import: exit %d", code)
	}
	santiago, _ := time.LoadLocation("America/Santiago")
	day := time.Now().In(santiago).AddDate(0, 0, 5)
	v, err := booking.Create(ctx, d, time.Now(), booking.NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 1,
		StatusID: booking.StatusConfirmed, Start: time.Date(day.Year(), day.Month(), day.Day(), 11, 0, 0, 0, santiago), Source: booking.SourceAdmin})
	if err != nil {
		t.Fatal(err)
	}
	bookingPage := "/bookings/" + strconv.FormatInt(v.Booking.ID, 10)
	waitFor(t, "the confirmation sent", func() bool { return strings.Contains(c.get(t, bookingPage).Body, `data-testid="message-sent"`) })
	wantBody(t, c.get(t, bookingPage), `data-testid="booking-messages"`, "Booking confirmation", "Reminder 24h before", "Reminder 2h before", "Planned")

	// A 5xx: failed in the log with the server's answer; resend delivers.
	smtp.SetReply(func(stage string, _ int) error {
		if stage == "rcpt" {
			return smtptest.Refuse(550, "mailbox unavailable")
		}
		return nil
	})
	w, err := booking.Create(ctx, d, time.Now(), booking.NewBooking{LocationID: 1, ServiceID: 1, ProviderID: 1, ClientID: 2,
		StatusID: booking.StatusConfirmed, Start: time.Date(day.Year(), day.Month(), day.Day(), 14, 0, 0, 0, santiago), Source: booking.SourceAdmin})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the failed message in the log", func() bool {
		return strings.Contains(c.get(t, "/settings/messages/log?state=failed").Body, `data-testid="message-failed"`)
	})
	var failedID int64
	if err := d.Read.QueryRow("SELECT id FROM messages WHERE booking_id = ? AND kind = 'confirmation'", w.Booking.ID).Scan(&failedID); err != nil {
		t.Fatal(err)
	}
	detail := "/settings/messages/log/" + strconv.FormatInt(failedID, 10)
	wantBody(t, c.get(t, detail), "550", "mailbox unavailable", `data-testid="resend-form"`)
	smtp.SetReply(nil)
	wantRedirect(t, c.post(t, detail+"/resend", nil), detail)
	waitFor(t, "the resent message", func() bool { return len(smtp.Messages()) == 3 })
	// The resend is in the trail, by the owner, about the message.
	var who, changes string
	if err := d.Read.QueryRow(`SELECT actor_label, changes FROM activity WHERE action = 'message.resent' AND entity = 'message' AND entity_id = ?`, failedID).Scan(&who, &changes); err != nil || who != ownerEmail || !strings.Contains(changes, `"kind":[null,"confirmation"]`) {
		t.Errorf("the resend's entry: by %q, %s (%v)", who, changes, err)
	}
}
