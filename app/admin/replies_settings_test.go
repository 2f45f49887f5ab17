package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"frontdesk/db"
)

// Settings → Messages → Replies: the copy of clients' messages to the owner is off by default;
// the form switches it on and off; the inbox shows the answer sent back beside a message.
func TestReplyCopiesSetting(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d, err := db.Open(context.Background(), filepath.Join(ts.Data, db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	copies := func() int {
		var n int
		if err := d.Read.QueryRow(`SELECT copy_replies FROM message_settings`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	res := c.get(t, "/settings/messages/inbox")
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="inbox-copy-form"`)
	if copies() != 0 {
		t.Fatalf("copies on by default")
	}
	wantRedirect(t, c.post(t, "/settings/messages/inbox", url.Values{"copy": {"1"}}), "/settings/messages/inbox")
	if copies() != 1 {
		t.Errorf("copies not switched on")
	}
	wantRedirect(t, c.post(t, "/settings/messages/inbox", url.Values{}), "/settings/messages/inbox")
	if copies() != 0 {
		t.Errorf("copies not switched off")
	}
	if _, err := d.Write.Exec(`INSERT INTO inbound_messages (channel, provider_id, from_phone, body, action, outcome, reply, received_at)
		VALUES ('whatsapp', 'wamid.X', '+56961234567', 'STOP', 'stop', 'done', 'You will receive no more texts from us.', 1)`); err != nil {
		t.Fatal(err)
	}
	wantBody(t, c.get(t, "/settings/messages/inbox"), "You will receive no more texts from us.")
}
