package mailer

import (
	"context"
	"net/mail"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
)

// A kept connection idle for idleTimeout is closed (QUIT) by us, not left for the server to drop.
func TestIdleConnectionsAreClosed(t *testing.T) {
	srv := smtptest.Start(t)
	p := newSMTPConns()
	p.idleTimeout = 50 * time.Millisecond
	defer p.close()
	tr := messages.Transport{Host: srv.Host(), Port: srv.Port(), Security: messages.SecurityOff, From: mail.Address{Address: "hola@studio-ana.example"}}
	m, err := compose(messages.Envelope{From: tr.From, To: mail.Address{Address: "maria@example.com"}, MessageID: "k@studio-ana.example",
		Date: time.Now(), Content: messages.Rendered{Subject: "Hi", Text: "Hello\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.deliver(context.Background(), tr, m, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if opened, open := srv.Connections(); opened != 1 || open != 1 {
		t.Fatalf("after one message: %d opened, %d open; want 1 kept open", opened, open)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, open := srv.Connections(); open != 0; _, open = srv.Connections() {
		if time.Now().After(deadline) {
			t.Fatalf("the idle connection is still open %s after its idle timeout", 5*time.Second)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
