package mailer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
	"frontdesk/app/queue"
)

var fast = queue.Schedule{0, 20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond,
	300 * time.Millisecond, 500 * time.Millisecond, time.Second, time.Second, time.Second}

func (e *env) confirmation(bookingID int64) messages.Entry {
	e.t.Helper()
	for _, x := range e.entries(bookingID) {
		if x.Kind == messages.Confirmation && x.Recipient == messages.ToClient {
			return x
		}
	}
	e.t.Fatalf("booking %d has no confirmation", bookingID)
	return messages.Entry{}
}

// The mail server is down: the message is retried on the schedule and delivered when the
// server is back; the log shows the failed attempts.
func TestServerDownThenBack(t *testing.T) {
	e := newEnv(t, envOptions{realClock: true, schedule: fast})
	e.smtp.Down()
	// Within a day: its 2-hour reminder is written at once (horizon.go), so there is one to resend.
	v := e.book("María", time.Now().Add(20*time.Hour).Truncate(time.Minute))
	eventually(t, "two failed attempts", func() bool { return e.confirmation(v.Booking.ID).Attempts >= 2 })
	if x := e.confirmation(v.Booking.ID); x.State != messages.StatePending {
		t.Fatalf("while the server is down: %+v, want pending", x)
	}
	e.smtp.Up()
	got := e.waitFor("Booking confirmed", 1)
	if len(got) != 1 {
		t.Errorf("%d confirmations, want 1", len(got))
	}
	eventually(t, "sent", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	d, err := e.s.Message(context.Background(), e.confirmation(v.Booking.ID).ID)
	if err != nil {
		t.Fatal(err)
	}
	last := d.Attempts[len(d.Attempts)-1]
	if len(d.Attempts) < 3 || d.Attempts[0].Category != messages.CategoryConnect || last.Category != "" || last.Code != 0 && last.Code != 250 {
		t.Errorf("attempts %+v: want connection failures, then a success", d.Attempts)
	}
}

// A 4xx reply is retried; a 5xx reply fails the message at once, the log shows the server's
// answer, and resending delivers it with the same Message-ID.
func TestTemporaryAndPermanentReplies(t *testing.T) {
	e := newEnv(t, envOptions{realClock: true, schedule: fast})
	e.smtp.SetReply(func(stage string, accepted int) error {
		if stage == "rcpt" {
			return smtptest.Refuse(451, "greylisted, try later")
		}
		return nil
	})
	// Within a day: its 2-hour reminder is written at once (horizon.go), so there is one to resend.
	v := e.book("María", time.Now().Add(20*time.Hour).Truncate(time.Minute))
	eventually(t, "a retried 451", func() bool { return e.confirmation(v.Booking.ID).Attempts >= 2 })
	if x := e.confirmation(v.Booking.ID); x.State != messages.StatePending || x.LastCode != 451 {
		t.Fatalf("after 451s: %+v, want pending with last code 451", x)
	}
	e.smtp.SetReply(func(stage string, accepted int) error {
		if stage == "rcpt" {
			return smtptest.Refuse(550, "no such user here")
		}
		return nil
	})
	eventually(t, "failed on 550", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateFailed })
	x := e.confirmation(v.Booking.ID)
	if x.LastCode != 550 || !strings.Contains(x.Note, "no such user here") {
		t.Errorf("failed message %+v: want code 550 and the server's words", x)
	}
	page, err := e.s.Log(context.Background(), messages.LogFilter{State: messages.StateFailed})
	if err != nil || page.Total != 1 || page.Entries[0].ID != x.ID {
		t.Errorf("log of failed messages: %+v, %v; want the confirmation", page, err)
	}
	d, _ := e.s.Message(context.Background(), x.ID)
	if last := d.Attempts[len(d.Attempts)-1]; last.Category != messages.CategoryRejected || last.Code != 550 {
		t.Errorf("last attempt %+v, want rejected 550", last)
	}
	if len(e.smtp.Messages()) != 0 {
		t.Fatalf("the server accepted something")
	}

	e.smtp.SetReply(nil)
	if err := e.s.Resend(context.Background(), x.ID); err != nil {
		t.Fatal(err)
	}
	got := e.waitFor("Booking confirmed", 1)[0]
	if want := "<" + x.MessageID + "@studio-ana.example>"; got.Header.Get("Message-Id") != want {
		t.Errorf("resent Message-ID %q, want %q", got.Header.Get("Message-Id"), want)
	}
	eventually(t, "sent after resend", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	if err := e.s.Resend(context.Background(), e.planned(v.Booking.ID, 2*time.Hour).ID); !errors.Is(err, messages.ErrNotResendable) {
		t.Errorf("resending a planned reminder: %v, want ErrNotResendable", err)
	}
}

// Line breaks in names, subjects and addresses never become headers: names are encoded on one
// line, a bad address is refused and recorded, and settings refuse them.
func TestHeaderInjection(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	// Stored data that slipped past every form (older imports, direct SQL): the last line of
	// defence is the sender.
	if _, err := e.db.Write.Exec(`UPDATE clients SET first_name = 'Eve' || char(13, 10) || 'Bcc: evil@example.net',
		last_name = char(10) || 'X-Injected: 1' WHERE first_name = 'María'`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Write.Exec(`UPDATE clients SET email = 'john@example.com' || char(13, 10) || 'Bcc: evil@example.net' WHERE first_name = 'John'`); err != nil {
		t.Fatal(err)
	}
	if err := e.s.SaveTemplate(ctx, messages.Confirmation, "en", messages.Template{
		Subject: "Hi {{.ClientName}} — {{.Service}}", Body: "Dear {{.ClientName}},\n\nsee you {{.When}}.",
	}); err != nil {
		t.Fatal(err)
	}
	eve := e.book("Eve\r\nBcc: evil@example.net", time.Date(2026, 12, 1, 10, 0, 0, 0, santiago))
	john := e.book("John", time.Date(2026, 12, 1, 12, 0, 0, 0, santiago))
	eventually(t, "both settled", func() bool {
		return e.confirmation(eve.Booking.ID).State == messages.StateSent && e.confirmation(john.Booking.ID).State == messages.StateFailed
	})
	msgs := e.smtp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("server accepted %d messages, want only Eve's", len(msgs))
	}
	if len(msgs[0].To) != 1 || msgs[0].To[0] != "maria@example.com" {
		t.Errorf("recipients %v, want only maria@example.com", msgs[0].To)
	}
	p, err := smtptest.Parse(msgs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(p.RawHeader, "\r\n") {
		if strings.HasPrefix(strings.ToLower(line), "bcc:") || strings.HasPrefix(strings.ToLower(line), "x-injected:") {
			t.Errorf("injected header line %q in:\n%s", line, p.RawHeader)
		}
	}
	if want := "Hi Eve  Bcc: evil@example.net   X-Injected: 1 — Haircut"; p.Subject != strings.Join(strings.Fields(want), " ") {
		t.Errorf("subject %q, want the name on one line", p.Subject)
	}
	if x := e.confirmation(john.Booking.ID); !strings.Contains(x.Note, "invalid email address") {
		t.Errorf("John's confirmation %+v, want failed for the address", x)
	}
	d, _ := e.s.Message(ctx, e.confirmation(john.Booking.ID).ID)
	if len(d.Attempts) != 1 || d.Attempts[0].Category != messages.CategoryAddress {
		t.Errorf("attempts %+v, want one refused for the address", d.Attempts)
	}
	// Settings refuse line breaks in every header they feed.
	for _, in := range []messages.TransportInput{
		{Host: "mail.example.com", Port: 587, Security: messages.SecurityStartTLS, FromAddress: "a@example.com", FromName: "Studio\r\nBcc: x@example.net"},
		{Host: "mail.example.com", Port: 587, Security: messages.SecurityStartTLS, FromAddress: "a@example.com\r\nBcc: x@example.net"},
		{Host: "mail.example.com", Port: 587, Security: messages.SecurityStartTLS, FromAddress: "a@example.com", ReplyTo: "b@example.com\nBcc: x@example.net"},
	} {
		var fe messages.FieldErrors
		if err := e.s.SaveTransport(ctx, in); !errors.As(err, &fe) {
			t.Errorf("SaveTransport(%+v) = %v, want field errors", in, err)
		}
	}
	if err := e.s.SaveTemplate(ctx, messages.Reminder, "en", messages.Template{Subject: "a\r\nBcc: x@example.net", Body: "b"}); err == nil {
		t.Errorf("a subject with a line break was saved")
	}
}

// Template errors and unknown fields are shown by the preview, refused when saving, and a
// broken template that is in the database anyway fails its message without sending.
func TestTemplateErrorsNeverSent(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	cases := []struct {
		name string
		tpl  messages.Template
		want string
	}{
		{"unknown field", messages.Template{Subject: "Hi {{.Nmae}}", Body: "x"}, "{{.Nmae}} is not a field"},
		{"syntax", messages.Template{Subject: "Hi", Body: "Your booking {{.Date"}, "Template error"},
		{"unknown function", messages.Template{Subject: "Hi", Body: "{{shell .Date}}"}, "Template error"},
		{"loop", messages.Template{Subject: "Hi", Body: "{{range 1000000000}}x{{end}}"}, "not available"},
		{"other templates", messages.Template{Subject: "Hi", Body: `{{define "a"}}x{{end}}{{template "a"}}`}, "not available"},
		{"empty subject", messages.Template{Subject: "{{if false}}x{{end}}", Body: "x"}, "subject comes out empty"},
	}
	for _, c := range cases {
		_, err := e.s.Preview(ctx, messages.Confirmation, "en", c.tpl, 0)
		var te *messages.TemplateError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: preview error %v, want a template error containing %q", c.name, err, c.want)
		}
		if err := e.s.SaveTemplate(ctx, messages.Confirmation, "en", c.tpl); !errors.As(err, &te) {
			t.Errorf("%s: saved, want refused", c.name)
		}
	}
	if _, custom, _ := e.s.Template(ctx, messages.Confirmation, "en"); custom {
		t.Errorf("a refused template was stored")
	}
	// A good template previews on a real booking.
	v := e.book("María", time.Date(2026, 12, 2, 9, 15, 0, 0, santiago))
	r, err := e.s.Preview(ctx, messages.Reminder, "es", messages.Template{Subject: "Hola {{.ClientFirstName}}: {{.Time}}", Body: "{{.When}}"}, v.Booking.ID)
	if err != nil || r.Subject != "Hola María: 9:15" && r.Subject != "Hola María: 09:15" {
		t.Errorf("preview on a real booking: %q, %v", r.Subject, err)
	}
	e.waitFor("Booking confirmed", 1)
	// A broken template in the database (restored from elsewhere) fails the message, unsent.
	if _, err := e.db.Write.Exec(`INSERT INTO message_templates (kind, language, subject, body, updated_at)
		VALUES ('confirmation', 'en', 'Hi {{.Nope}}', 'x', 0)`); err != nil {
		t.Fatal(err)
	}
	before := len(e.smtp.Messages())
	w := e.book("John", time.Date(2026, 12, 3, 9, 0, 0, 0, santiago))
	eventually(t, "failed", func() bool { return e.confirmation(w.Booking.ID).State == messages.StateFailed })
	if len(e.smtp.Messages()) != before {
		t.Errorf("a message with a broken template reached the server")
	}
	d, _ := e.s.Message(ctx, e.confirmation(w.Booking.ID).ID)
	if len(d.Attempts) != 1 || d.Attempts[0].Category != messages.CategoryTemplate {
		t.Errorf("attempts %+v, want one template failure", d.Attempts)
	}
}
