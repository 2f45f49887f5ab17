package customer_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"frontdesk/app/messages"
)

// The opt-out link a reminder carries: no session needed; opening it changes nothing, the
// button does, and so does a mail client's one-click POST (RFC 8058: no Origin, no cookie). A
// token that is not one is the 404 page; a form posted from another origin is refused.
func TestUnsubscribeLink(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	link := f.msgs.UnsubscribeURL(ctx, 1)
	path := strings.TrimPrefix(link, f.url)
	if !strings.HasPrefix(path, messages.UnsubscribePath) {
		t.Fatalf("opt-out link %q, want it under %s%s", link, f.url, messages.UnsubscribePath)
	}
	token := strings.TrimPrefix(path, messages.UnsubscribePath)
	optedOut := func() bool {
		t.Helper()
		out, err := f.msgs.Subscription(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	res := f.get(path)
	wantStatus(t, res, http.StatusOK)
	wantBody(t, res, `data-testid="unsubscribe-form"`)
	if optedOut() {
		t.Fatal("opening the link unsubscribed")
	}

	res = f.post(path, url.Values{"action": {"stop"}}, http.Header{"Sec-Fetch-Site": {"cross-site"}})
	wantStatus(t, res, http.StatusForbidden)
	if optedOut() {
		t.Fatal("a form from another origin unsubscribed")
	}

	req, err := http.NewRequest(http.MethodPost, link, strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	wantStatus(t, f.do(req), http.StatusOK)
	if !optedOut() {
		t.Error("the one-click POST did not unsubscribe")
	}
	wantBody(t, f.get(path), `data-testid="unsubscribed"`)

	// The page's button to have reminders again.
	wantStatus(t, f.post(path, url.Values{"action": {"resume"}}, nil), http.StatusOK)
	if optedOut() {
		t.Error("resume did not bring reminders back")
	}

	for _, bad := range []string{messages.UnsubscribePath + "1.forged", messages.UnsubscribePath, "/messages/unsubscribe"} {
		res := f.get(bad)
		wantStatus(t, res, http.StatusNotFound)
		wantBody(t, res, `data-testid="error-status"`)
	}
}
