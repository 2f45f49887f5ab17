package admin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	cdpwebauthn "github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// A passkey is added on the account page and signs in from the sign-in page, in Chromium with
// a virtual authenticator (the DevTools WebAuthn domain): CTAP2, resident keys, user
// verification that succeeds. The page is opened as http://localhost:port, since a relying
// party id must be a domain name, not an address.
func TestBrowserPasskeyRegisterAndSignIn(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	base := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)

	b := newBrowser(t, 1280, 900)
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, cdpwebauthn.Enable, cdpwebauthn.EnableParams{}); err != nil {
		t.Fatalf("enable WebAuthn domain: %v", err)
	}
	auth, err := chromedp.Call(ctx, cdpwebauthn.AddVirtualAuthenticator, cdpwebauthn.AddVirtualAuthenticatorParams{
		Options: &cdpwebauthn.VirtualAuthenticatorOptions{
			Protocol: cdpwebauthn.AuthenticatorProtocolCtap2, Ctap2version: cdpwebauthn.Ctap2versionCtap21,
			Transport: cdpwebauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true,
			IsUserVerified: true, AutomaticPresenceSimulation: true,
		}})
	if err != nil {
		t.Fatalf("add virtual authenticator: %v", err)
	}

	b.do("login", chromedp.Navigate(base+"/login"), chromedp.WaitVisible(testID("login-form")),
		chromedp.SendKeys(css("#f-email"), ownerEmail), chromedp.SendKeys(css("#f-password"), ownerPassword),
		chromedp.Submit(testID("login-form")), chromedp.WaitVisible(testID("logout")))
	b.do("add passkey", chromedp.Navigate(base+"/account#passkeys"), chromedp.WaitVisible(testID("add-passkey")),
		chromedp.SendKeys(css("#f-passkey_name"), "Test laptop"), chromedp.Click(testID("add-passkey")),
		chromedp.WaitVisible(testID("passkey-row")))
	if got := b.text(`[data-testid=passkey-row] td`); got != "Test laptop" {
		t.Errorf("the passkey is listed as %q, want %q", got, "Test laptop")
	}
	creds, err := chromedp.Call(ctx, cdpwebauthn.GetCredentials, cdpwebauthn.GetCredentialsParams{AuthenticatorID: auth.AuthenticatorID})
	if err != nil {
		t.Fatal(err)
	}
	if len(creds.Credentials) != 1 || !creds.Credentials[0].IsResidentCredential || creds.Credentials[0].RpID != "localhost" {
		t.Fatalf("authenticator holds %+v, want one resident credential for localhost", creds.Credentials)
	}

	b.do("sign out", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	b.do("sign in with passkey", chromedp.WaitVisible(testID("passkey-signin")), chromedp.Click(testID("passkey-signin")),
		chromedp.WaitVisible(testID("logout")))
	if got := evalJS[string](b, "location.pathname"); got != "/" {
		t.Errorf("after the passkey sign-in the page is %s, want /", got)
	}
	visit(t, b, base+"/account")
	if got := b.text(`[data-testid=passkey-row] td:nth-child(3)`); got == "Never" || got == "" {
		t.Errorf("after signing in with it, the passkey's last use is %q", got)
	}
	b.do("remove passkey", chromedp.Click(testID("remove-passkey")), chromedp.WaitNotPresent(testID("passkey-row")))
	// Removed, it signs no one in, though the authenticator still holds it.
	b.do("sign out again", chromedp.Click(testID("logout")), chromedp.WaitVisible(testID("login-form")))
	b.do("passkey refused", chromedp.WaitVisible(testID("passkey-signin")), chromedp.Click(testID("passkey-signin")),
		chromedp.WaitVisible(testID("form-error")))
	if b.present(`[data-testid=logout]`) {
		t.Error("a removed passkey signed in")
	}
}
