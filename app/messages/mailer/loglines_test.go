package mailer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
)

// Each attempt at a customer email is one log line once recorded — a retry, a permanent
// failure, a send — saying what the email is (kind, message, booking, recipient) and what became
// of it, with the server's code and words for a failure; the recipient's address appears
// nowhere in the log, not even where the server's reply quotes it, only its domain.
func TestOneLogLinePerEmail(t *testing.T) {
	var logs syncBuffer
	e := newEnv(t, envOptions{realClock: true, schedule: fast, log: &logs})
	refuse := func(code int, text string) {
		e.smtp.SetReply(func(stage string, _ int) error {
			if stage == "rcpt" {
				return smtptest.Refuse(code, text)
			}
			return nil
		})
	}
	refuse(451, "<maria@example.com> greylisted, try later")
	v := e.book("María", time.Now().Add(72*time.Hour).Truncate(time.Minute))
	eventually(t, "a retried 451", func() bool { return e.confirmation(v.Booking.ID).Attempts >= 2 })
	refuse(550, "<maria@example.com>: no such user here")
	eventually(t, "failed on 550", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateFailed })
	e.smtp.SetReply(nil)
	x := e.confirmation(v.Booking.ID)
	if err := e.s.Resend(context.Background(), x.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "sent after resend", func() bool { return e.confirmation(v.Booking.ID).State == messages.StateSent })
	e.stop()

	type line struct {
		Level, Msg, Outcome, Kind, Recipient, Reply, Category string
		ToDomain                                              string `json:"to_domain"`
		NextAttempt                                           string `json:"next_attempt"`
		Message, Booking, Attempt, Code                       int64
		Took                                                  any
	}
	var outcomes []string
	for _, raw := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		if l.Msg != "customer email" || l.Message != x.ID {
			continue
		}
		outcomes = append(outcomes, l.Outcome)
		if l.Kind != string(messages.Confirmation) || l.Recipient != messages.ToClient || l.Booking != v.Booking.ID ||
			l.ToDomain != "example.com" || l.Attempt < 1 || l.Took == nil {
			t.Errorf("line lacks what the email is: %s", raw)
		}
		switch l.Outcome {
		case "retry":
			if l.Level != "WARN" || l.Code != 451 || l.NextAttempt == "" || !strings.Contains(l.Reply, "…@example.com> greylisted") {
				t.Errorf("retry line: %s", raw)
			}
		case "failed":
			if l.Level != "ERROR" || l.Code != 550 || !strings.Contains(l.Reply, "no such user here") {
				t.Errorf("failed line: %s", raw)
			}
		case "sent":
			if l.Level != "INFO" || l.Reply != "" {
				t.Errorf("sent line: %s", raw)
			}
		}
	}
	if len(outcomes) < 3 || outcomes[0] != "retry" || outcomes[len(outcomes)-2] != "failed" || outcomes[len(outcomes)-1] != "sent" {
		t.Fatalf("outcomes logged for the confirmation: %v, want retries, then failed, then sent", outcomes)
	}
	for _, o := range outcomes[1 : len(outcomes)-2] {
		if o != "retry" {
			t.Errorf("outcomes logged for the confirmation: %v, want retries, then failed, then sent", outcomes)
		}
	}
	if strings.Contains(logs.String(), "maria@example.com") {
		t.Errorf("the log holds the recipient's address:\n%s", logs.String())
	}
}

// syncBuffer is a log the dispatcher writes while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
