package admin_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"frontdesk/db"
)

// TestClientExportAndErase: the owner downloads a client's data, then erases the client behind
// the confirm page. A real webhook receiver gets client.updated with the erased fields, and a
// byte search of the running server's database file and WAL finds the client's name, email and
// phone nowhere, although client.created carried them to the receiver and its delivery is
// logged. Erasing again is harmless.
func TestClientExportAndErase(t *testing.T) {
	const (
		first = "Ysoldequix"
		last  = "Marwentholt"
		email = "ysoldequix.marwentholt@erase.example"
		phone = "+56955501234"
	)
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	rc := newReceiver(t)
	createWebhook(t, c, webhookForm(rc.URL, "*"))

	res := c.post(t, "/clients", url.Values{"first_name": {first}, "last_name": {last}, "email": {email}, "phone": {phone}, "gender": {"0"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("create: %d\n%.2000s", res.Status, res.Body)
	}
	clientURL := res.Header.Get("Location")
	waitFor(t, "client.created at the receiver", func() bool { return rc.hasBody(email) })

	page := c.get(t, clientURL)
	wantBody(t, page, `data-testid="export-client-link"`, `data-testid="erase-client-link"`)
	export := c.get(t, clientURL+"/export")
	wantStatus(t, export, http.StatusOK)
	if cd := export.Header.Get("Content-Disposition"); !strings.Contains(cd, `filename="client-`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	wantBody(t, export, `"email": "`+email+`"`, `"bookings": []`, `"messages": []`)

	confirm := c.get(t, clientURL+"/erase")
	wantBody(t, confirm, `data-testid="confirm-erase"`, first+" "+last)
	wantRedirect(t, c.post(t, clientURL+"/erase", url.Values{}), clientURL)
	waitFor(t, "client.updated with the erased fields", func() bool {
		return rc.hasBody(`"type":"client.updated"`) && rc.hasBody(`"first_name":"Erased client"`)
	})
	wantBody(t, c.get(t, clientURL), "personal data was erased")

	path := db.Path(ts.Data)
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, needle := range []string{first, last, email, phone} {
			if i := bytes.Index(b, []byte(needle)); i >= 0 {
				t.Errorf("%s still holds %q at %d: %q", filepath.Base(f), needle, i, b[max(0, i-40):min(len(b), i+60)])
			}
		}
	}

	wantRedirect(t, c.post(t, clientURL+"/erase", url.Values{}), clientURL)
	wantBody(t, c.get(t, clientURL), "already erased")
}

// hasBody reports whether a request that arrived holds s.
func (rc *receiver) hasBody(s string) bool {
	for _, d := range rc.received() {
		if bytes.Contains(d.body, []byte(s)) {
			return true
		}
	}
	return false
}
