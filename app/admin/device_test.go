package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// deviceCookie is c's device cookie for the sign-in page ("" if none).
func (c *client) deviceCookie() string {
	u, _ := url.Parse(c.ts.URL + "/login")
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "frontdesk_device" {
			return ck.Value
		}
	}
	return ""
}

func (c *client) setDeviceCookie(value string) {
	u, _ := url.Parse(c.ts.URL + "/login")
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "frontdesk_device", Value: value, Path: "/login"}})
}

// Five wrong passwords used to lock the owner out from anywhere, their own devices included.
// Now a browser that signed in before carries a signed device cookie and keeps signing in
// while a guesser — here at the same address, as behind a shared proxy — is locked out; the
// cookie proves nothing when forged or when it names another account, and a device that
// guesses itself is paused on its own.
func TestDeviceCookieKeepsTheOwnerIn(t *testing.T) {
	ts := startServer(t)
	first := ts.setupOwner(t)
	wantRedirect(t, first.post(t, "/owners", url.Values{"owner_email": {"second@example.com"}, "password": {"second owner password"}}), "/settings/team")

	device := ts.newClient(t)
	res := device.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	wantRedirect(t, res, "/")
	var issued *http.Cookie
	for _, ck := range (&http.Response{Header: res.Header}).Cookies() {
		if ck.Name == "frontdesk_device" {
			issued = ck
		}
	}
	if issued == nil || !issued.HttpOnly || issued.SameSite != http.SameSiteStrictMode || issued.Path != "/login" || issued.MaxAge < 300*24*3600 {
		t.Fatalf("device cookie at sign-in: %+v, want HttpOnly, SameSite=Strict, Path=/login, a long life", issued)
	}
	wantRedirect(t, device.post(t, "/logout", nil), "/login")

	guesser := ts.newClient(t)
	for i := range 5 {
		res := guesser.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {"wrong " + string(rune('a'+i))}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
	}
	res = guesser.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	wantStatus(t, res, http.StatusTooManyRequests)
	wantBody(t, res, "Devices you signed in on before are not affected.")

	// The owner's device, same address, still gets in — and gets a fresh cookie.
	before := device.deviceCookie()
	device.login(t, ownerEmail, ownerPassword)
	if after := device.deviceCookie(); after == "" || after == before {
		t.Errorf("device cookie after signing in again: %q, want a fresh one", after)
	}
	wantRedirect(t, device.post(t, "/logout", nil), "/login")

	// Forged cookies count for nothing.
	good := device.deviceCookie()
	for name, forged := range map[string]string{
		"tampered signature": good[:len(good)-2] + "AA",
		"tampered payload":   "x" + good[1:],
		"garbage":            "not-a-cookie",
	} {
		c := ts.newClient(t)
		c.setDeviceCookie(forged)
		res := c.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
		if res.Status != http.StatusTooManyRequests {
			t.Errorf("%s device cookie: got %d, want 429 like any new device", name, res.Status)
		}
	}
	// A device of the second owner is not a device of the first.
	other := ts.newClient(t)
	other.login(t, "second@example.com", "second owner password")
	wantRedirect(t, other.post(t, "/logout", nil), "/login")
	wantStatus(t, other.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}}), http.StatusTooManyRequests)
	// Both owners share that computer: each keeps their entry.
	other.setDeviceCookie(good + "~" + other.deviceCookie())
	other.login(t, ownerEmail, ownerPassword)
	wantRedirect(t, other.post(t, "/logout", nil), "/login")
	if n := strings.Count(other.deviceCookie(), "~") + 1; n != 2 {
		t.Errorf("shared computer: %d entries in the device cookie, want 2", n)
	}
	other.login(t, "second@example.com", "second owner password")
	wantRedirect(t, other.post(t, "/logout", nil), "/login")

	// The device guesses itself: after ten failures it is paused, even for the right password.
	for range 10 {
		wantStatus(t, device.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {"wrong"}}), http.StatusUnprocessableEntity)
	}
	res = device.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	wantStatus(t, res, http.StatusTooManyRequests)
	wantBody(t, res, "from this device")
	if device.cookie() != "" && strings.Contains(device.get(t, "/").Body, "account-link") {
		t.Error("a paused device got a session")
	}
}
