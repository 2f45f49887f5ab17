package admin_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"frontdesk/app/staff"
)

// Two-factor sign-in through the real appliance: enrolment with a code computed from the
// secret the page shows, the code step at sign-in, refusals, recovery codes and the rule.

var (
	secretRe   = regexp.MustCompile(`data-testid="twofactor-secret">([A-Z2-7]+)<`)
	recoveryRe = regexp.MustCompile(`<li><code>([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})</code></li>`)
)

// totpAt is the six-digit code an authenticator app shows for secret at t.
func totpAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	code, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// enrolTOTP turns two-factor on for c's account and returns the secret, the code that
// confirmed it, and the recovery codes shown.
func enrolTOTP(t *testing.T, c *client) (secret, used string, codes []string) {
	t.Helper()
	wantRedirect(t, c.post(t, "/account/two-factor/start", nil), "/account#two-factor")
	page := c.get(t, "/account")
	wantStatus(t, page, 200)
	m := secretRe.FindStringSubmatch(page.Body)
	if m == nil {
		t.Fatalf("account page shows no secret:\n%.3000s", page.Body)
	}
	secret = m[1]
	wantBody(t, page, `data-testid="twofactor-qr"`, "otpauth://totp/")
	used = totpAt(t, secret, time.Now())
	res := c.post(t, "/account/two-factor/confirm", url.Values{"tf_code": {used}})
	wantStatus(t, res, 200)
	for _, m := range recoveryRe.FindAllStringSubmatch(res.Body, -1) {
		codes = append(codes, m[1])
	}
	if len(codes) != 10 {
		t.Fatalf("got %d recovery codes, want 10:\n%.3000s", len(codes), res.Body)
	}
	return secret, used, codes
}

// passwordStep signs in with the password and expects the code step.
func passwordStep(t *testing.T, c *client) {
	t.Helper()
	res := c.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	wantRedirect(t, res, "/login/code")
	// Half signed in: no page but the code step.
	wantRedirect(t, c.get(t, "/account"), "/login?next=%2Faccount")
	wantStatus(t, c.get(t, "/login/code"), 200)
}

func TestTwoFactorSignIn(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	secret, used, _ := enrolTOTP(t, owner)

	c := ts.newClient(t)
	passwordStep(t, c)

	// The code that confirmed enrolment is spent: replaying it is refused.
	res := c.post(t, "/login/code", url.Values{"code": {used}})
	wantStatus(t, res, 422)
	wantBody(t, res, "already used")

	// A code that is none of the current ones is refused.
	valid := map[string]bool{}
	for _, d := range []time.Duration{-30 * time.Second, 0, 30 * time.Second, 60 * time.Second} {
		valid[totpAt(t, secret, time.Now().Add(d))] = true
	}
	wrong := "000000"
	for i := 1; valid[wrong]; i++ {
		wrong = strings.Repeat(string(rune('0'+i)), 6)
	}
	res = c.post(t, "/login/code", url.Values{"code": {wrong}})
	wantStatus(t, res, 422)
	wantBody(t, res, "not right")

	// The next step's code signs in (the app's clock may be a step ahead).
	next := totpAt(t, secret, time.Now().Add(30*time.Second))
	wantRedirect(t, c.post(t, "/login/code", url.Values{"code": {next}}), "/")
	wantStatus(t, c.get(t, "/account"), 200)

	// The same code again, in another browser right after: refused as replayed.
	other := ts.newClient(t)
	passwordStep(t, other)
	res = other.post(t, "/login/code", url.Values{"code": {next}})
	wantStatus(t, res, 422)
	wantBody(t, res, "already used")
	wantRedirect(t, other.get(t, "/"), "/login")
}

func TestTwoFactorRecoveryCodeWorksOnce(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	_, _, codes := enrolTOTP(t, owner)

	c := ts.newClient(t)
	passwordStep(t, c)
	// Typed in lower case and without dashes, as people do.
	typed := strings.ToLower(strings.ReplaceAll(codes[3], "-", " "))
	wantRedirect(t, c.post(t, "/login/code", url.Values{"code": {typed}}), "/")
	res := c.get(t, "/account")
	wantStatus(t, res, 200)
	wantBody(t, res, "9 recovery codes left")

	again := ts.newClient(t)
	passwordStep(t, again)
	res = again.post(t, "/login/code", url.Values{"code": {codes[3]}})
	wantStatus(t, res, 422)
	wantRedirect(t, again.get(t, "/"), "/login")
	// Another unused code still works.
	wantRedirect(t, again.post(t, "/login/code", url.Values{"code": {codes[4]}}), "/")
}

func TestTwoFactorRuleForcesEnrolment(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	wantStatus(t, owner.get(t, "/"), 200)

	wantRedirect(t, owner.post(t, "/settings/team/two-factor", url.Values{"require_two_factor": {"1"}}), "/settings/team")
	// Every page now sends the owner to enrol first.
	wantRedirect(t, owner.get(t, "/"), "/account#two-factor")
	wantRedirect(t, owner.get(t, "/bookings"), "/account#two-factor")
	page := owner.get(t, "/account")
	wantStatus(t, page, 200)
	wantBody(t, page, `data-testid="twofactor-required"`)

	enrolTOTP(t, owner)
	wantStatus(t, owner.get(t, "/"), 200)
	// Under the rule it cannot be turned off again.
	res := owner.post(t, "/account/two-factor/manage", url.Values{"tf_password": {ownerPassword}, "action": {"off"}})
	wantStatus(t, res, 422)
	wantBody(t, res, html.EscapeString("cannot be turned off"))
}

// The rule is for owners and managers: a manager is sent to enrol, reception and provider
// accounts work on without a second factor.
func TestTwoFactorRuleIsForOwnersAndManagers(t *testing.T) {
	ts := startServer(t)
	first := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	manager := addStaff(t, ts, d, "manager@example.com", staff.RoleManager, 0)
	reception := addStaff(t, ts, d, "reception@example.com", staff.RoleReception, 0)
	enrolTOTP(t, first)
	wantRedirect(t, first.post(t, "/settings/team/two-factor", url.Values{"require_two_factor": {"1"}}), "/settings/team")

	wantRedirect(t, manager.get(t, "/bookings"), "/account#two-factor")
	wantStatus(t, reception.get(t, "/bookings"), http.StatusOK)
}

// Wrong codes count against the sign-in throttle: after five from one untrusted client, even
// the right code waits.
func TestTwoFactorCodeStepThrottled(t *testing.T) {
	ts := startServer(t)
	owner := ts.setupOwner(t)
	secret, _, _ := enrolTOTP(t, owner)

	c := ts.newClient(t)
	passwordStep(t, c)
	for range 5 {
		wantStatus(t, c.post(t, "/login/code", url.Values{"code": {"12345"}}), 422)
	}
	res := c.post(t, "/login/code", url.Values{"code": {totpAt(t, secret, time.Now().Add(30*time.Second))}})
	wantStatus(t, res, 429)
	if res.Header.Get("Retry-After") == "" {
		t.Error("a throttled code step has no Retry-After")
	}
	wantRedirect(t, c.get(t, "/"), "/login")
}
