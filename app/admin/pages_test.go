package admin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/admin"
	"frontdesk/ui"
)

// TestHTMLInert: names owners type in come back as text, never as markup.
func TestHTMLInert(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	evil := `<script>alert(1)</script><img src=x onerror=alert(2)>`

	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", url.Values{"name": {evil}, "access": {"full"}}), "/settings/integrations/api-keys")
	list := c.get(t, "/settings/integrations/api-keys")
	wantStatus(t, list, http.StatusOK)
	business := businessForm()
	business.Set("name", evil)
	wantRedirect(t, c.post(t, "/settings/business", business), "/settings/business")
	settings := c.get(t, "/settings/business")

	for name, res := range map[string]response{"API keys": list, "business": settings} {
		t.Run(name, func(t *testing.T) {
			wantBody(t, res, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;")
			for _, raw := range []string{"<script>alert(1)", "<img src=x"} {
				if strings.Contains(res.Body, raw) {
					t.Errorf("page contains raw %q", raw)
				}
			}
		})
	}
	// The flash after revoking repeats the name: also escaped.
	id := between(list.Body, "/settings/integrations/api-keys/", "/revoke")
	wantRedirect(t, c.post(t, "/settings/integrations/api-keys/"+id+"/revoke", nil), "/settings/integrations/api-keys")
	wantBody(t, c.get(t, "/settings/integrations/api-keys"), `data-testid="flash">The API key “&lt;script&gt;`)
}

// between returns the text between the first before and the next after it.
func between(s, before, after string) string {
	_, rest, ok := strings.Cut(s, before)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, after)
	return v
}

func businessForm() url.Values {
	return url.Values{
		"name": {"Studio Uno"}, "currency": {"eur"}, "slot_step_min": {"30"}, "min_notice_min": {"60"},
		"max_advance_days": {"60"}, "can_edit": {"1"}, "edit_lock_min": {"120"}, "max_changes": {"2"},
		"payment_expiry_min": {"20"}, "language": {"en"}, "clock": {"24h"},
	}
}

func TestBusinessSettings(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	wantStatus(t, c.get(t, "/settings/business"), http.StatusOK) // no company yet: defaults

	tests := []struct {
		name  string
		field string
		value string
		error string
	}{
		{"empty name", "name", " ", `data-testid="error-name"`},
		{"currency not a code", "currency", "EURO", `data-testid="error-currency"`},
		{"slot step too small", "slot_step_min", "4", "Enter a whole number from 5 to 240."},
		{"not a number", "min_notice_min", "ten", `data-testid="error-min_notice_min"`},
		{"negative", "max_changes", "-1", `data-testid="error-max_changes"`},
		{"payment expiry zero", "payment_expiry_min", "0", `data-testid="error-payment_expiry_min"`},
		{"language without a catalog", "language", "xx", `data-testid="error-language"`},
		{"clock", "clock", "36h", `data-testid="error-clock"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			form := businessForm()
			form.Set("name", "Kept <name>")
			form.Set(tc.field, tc.value)
			res := c.post(t, "/settings/business", form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.error, `aria-invalid="true"`, `data-testid="form-error"`)
			if tc.field != "name" {
				wantBody(t, res, `value="Kept &lt;name&gt;"`) // the user's input is kept
			}
		})
	}

	wantRedirect(t, c.post(t, "/settings/business", businessForm()), "/settings/business")
	saved := c.get(t, "/settings/business")
	wantBody(t, saved, `Business settings saved.`, `value="Studio Uno"`, `value="EUR"`, `name="slot_step_min" type="number" value="30"`)
	if strings.Contains(between(saved.Body, `name="can_cancel"`, ">"), "checked") {
		t.Error("can_cancel is ticked after saving it unticked")
	}
	if !strings.Contains(between(saved.Body, `name="can_edit"`, ">"), "checked") {
		t.Error("can_edit is not ticked after saving it ticked")
	}
	form := businessForm()
	form.Set("slot_step_min", "45")
	wantRedirect(t, c.post(t, "/settings/business", form), "/settings/business") // the update path
	wantBody(t, c.get(t, "/settings/business"), `name="slot_step_min" type="number" value="45"`)
}

func TestAPIKeyForm(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	tests := []struct {
		name string
		form url.Values
		want string
	}{
		{"no name", url.Values{"name": {"  "}}, `data-testid="error-name"`},
		{"long name", url.Values{"name": {strings.Repeat("n", 101)}}, `data-testid="error-name"`},
		{"unknown scope", url.Values{"name": {"Kept name"}, "scopes": {"bookings:read", "admin:all"}}, `data-testid="error-scopes"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.post(t, "/settings/integrations/api-keys", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.want)
			if strings.Contains(res.Body, `data-testid="new-api-key"`) {
				t.Error("a key was shown for an invalid form")
			}
		})
	}
	res := c.post(t, "/settings/integrations/api-keys", url.Values{"name": {"Kept name"}, "scopes": {"bookings:read", "admin:all"}})
	wantBody(t, res, `value="Kept name"`, `value="bookings:read" checked`)
	for _, path := range []string{"/settings/integrations/api-keys/999/revoke", "/settings/integrations/api-keys/abc/revoke", "/settings/integrations/api-keys/-1/revoke"} {
		wantStatus(t, c.get(t, path), http.StatusNotFound)
		wantStatus(t, c.post(t, path, nil), http.StatusNotFound)
	}
}

func TestAccountAndOwners(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	other := ts.newClient(t)
	other.login(t, ownerEmail, ownerPassword) // a second session of the same owner

	t.Run("add owner", func(t *testing.T) {
		res := c.post(t, "/owners", url.Values{"owner_email": {"not an email"}, "password": {"short"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, `data-testid="error-owner_email"`, `data-testid="error-password"`, `value="not an email"`)
		res = c.post(t, "/owners", url.Values{"owner_email": {strings.ToUpper(ownerEmail)}, "password": {"long enough password"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		wantBody(t, res, "There is already an owner with this email.")
		wantRedirect(t, c.post(t, "/owners", url.Values{"owner_email": {"Second@Example.com"}, "password": {"long enough password"}}), "/settings/team")
		wantBody(t, c.get(t, "/settings/team"), "Owner second@example.com added.", "second@example.com", ownerEmail)
		ts.newClient(t).login(t, "second@example.com", "long enough password")
	})

	t.Run("change password", func(t *testing.T) {
		bad := []struct {
			name string
			form url.Values
			want string
		}{
			{"wrong current", url.Values{"current": {"not my password"}, "password": {"a new password"}, "confirm": {"a new password"}}, "This is not your current password."},
			{"too short", url.Values{"current": {ownerPassword}, "password": {"short"}, "confirm": {"short"}}, "Use at least 10 characters."},
			{"confirmation differs", url.Values{"current": {ownerPassword}, "password": {"a new password"}, "confirm": {"a new passw0rd"}}, "The two passwords differ."},
		}
		for _, tc := range bad {
			res := c.post(t, "/account/password", tc.form)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			wantBody(t, res, tc.want)
			if strings.Contains(res.Body, "a new password") {
				t.Errorf("%s: a password was echoed back into the page", tc.name)
			}
		}
		before := c.cookie()
		wantRedirect(t, c.post(t, "/account/password", url.Values{"current": {ownerPassword}, "password": {"a new password"}, "confirm": {"a new password"}}), "/account")
		if c.cookie() == before {
			t.Error("session token unchanged after a password change")
		}
		wantBody(t, c.get(t, "/account"), "Password changed.")
		// The other session was signed out by the change.
		wantRedirect(t, other.get(t, "/account"), "/login?next=%2Faccount")
		wantStatus(t, ts.newClient(t).post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}}), http.StatusUnprocessableEntity)
		ts.newClient(t).login(t, ownerEmail, "a new password")
	})
}

func TestLoginRedirectsOnlyWithinSite(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	tests := []struct{ next, want string }{
		{"/owners?x=1", "/owners?x=1"},
		{"//evil.example/", "/"},
		{"/\\evil.example", "/"},
		{"https://evil.example/", "/"},
		{"/logout", "/"},
		{"", "/"},
	}
	for _, tc := range tests {
		t.Run(tc.next, func(t *testing.T) {
			c := ts.newClient(t)
			res := c.post(t, "/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}, "next": {tc.next}})
			wantRedirect(t, res, tc.want)
		})
	}
	res := ts.newClient(t).get(t, "/login?next=%2F%2Fevil.example")
	wantBody(t, res, `name="next" value="/"`)
}

// seededPages fills the running server behind c (signed in, after setup) with one record of
// every kind an owner can open — the booking world of seedPayWorld, a booking, a paid and a
// pending payment request, a category, a custom attribute, a product, an API key, a webhook
// with a delivery, a sent message — and returns the path of every GET page of the admin for
// it, the public ones (sign-in, and the customer pages of app/customer: checkout, unsubscribe)
// and error pages included. First-run setup is not among them: it exists only before the
// first owner, so a test opens it itself.
// The server must allow private webhook targets (FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true).
//
// TestPagesCoverEveryRoute keeps the list complete: a GET route of the route table without a
// page here fails it. The data is language-neutral on purpose (names like "Norte", "Ana"), so
// a test looking for English words finds only the UI's.
func seededPages(t *testing.T, ts *testServer, c *client) []adminPage {
	t.Helper()
	w := seedPayWorld(t, ts)
	exec := func(query string, args ...any) int64 {
		t.Helper()
		res, err := w.d.Write.Exec(query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	ms := time.Now().UnixMilli()
	category := exec(`INSERT INTO categories (name, created_at, updated_at) VALUES ('Corte', ?, ?)`, ms, ms)
	attribute := exec(`INSERT INTO custom_attributes (name, datatype) VALUES ('Alergias', 'text')`)
	exec(`INSERT INTO custom_attributes (name, datatype) VALUES ('Visita', 'datetime')`) // its input has a hint of its own
	product := exec(`INSERT INTO products (name, sku, price_cents, created_at, updated_at) VALUES ('Champú', 'CH-1', 1200, ?, ?)`, ms, ms)
	exec(`UPDATE services SET category_id = ? WHERE id = ?`, category, w.serviceID)
	// A room the service requires (docs/visits.md, "Resources"): the day view shows it as a column.
	room := exec(`INSERT INTO resources (location_id, name, kind, quantity, created_at, updated_at) VALUES (?, 'Sala 1', 'room', 2, ?, ?)`, w.Location, ms, ms)
	exec(`INSERT INTO service_resources (service_id, resource_id) VALUES (?, ?)`, w.serviceID, room)

	res := c.post(t, "/bookings", w.booking(w.Ana, w.Maria, "09:00"))
	if res.Status != http.StatusSeeOther {
		t.Fatalf("create booking: got %d, want 303; body:\n%.2000s", res.Status, res.Body)
	}
	var bookingID int64
	if err := w.d.Read.QueryRow(`SELECT max(id) FROM bookings`).Scan(&bookingID); err != nil {
		t.Fatal(err)
	}
	// A client's reply that confirmed, and a message left for the team (the inbox).
	exec(`UPDATE bookings SET client_confirmed_at = ? WHERE id = ?`, ms, bookingID)
	exec(`INSERT INTO inbound_messages (channel, provider_id, from_phone, body, booking_id, action, outcome, reply, received_at)
		VALUES ('sms', 'SM1', '+56961234567', 'SÍ', ?, 'confirm', 'done', 'ok', ?)`, bookingID, ms)
	exec(`INSERT INTO inbound_messages (channel, provider_id, from_phone, body, action, outcome, received_at)
		VALUES ('whatsapp', 'wamid.1', '+56961234568', '¿Puedo llevar a mi perro? Es una pregunta muy larga con una_palabra_muy_larga_sin_espacios_dentro', 'other', 'inbox', ?)`, ms)
	paid := w.request(t, "11:00")
	wantRedirect(t, c.post(t, ui.PaymentSettleURL(paid.ID), url.Values{"method": {"1"}}), ui.PaymentURL(paid.ID))
	pending := w.request(t, "13:30")
	var sale int64
	if err := w.d.Read.QueryRow(`SELECT max(id) FROM sales`).Scan(&sale); err != nil {
		t.Fatal(err)
	}

	wantRedirect(t, c.post(t, "/settings/integrations/api-keys", url.Values{"name": {"Caja"}, "access": {"full"}}), "/settings/integrations/api-keys")
	key := between(c.get(t, "/settings/integrations/api-keys").Body, "/settings/integrations/api-keys/", "/revoke")
	rc := newReceiver(t)
	hook, _ := createWebhook(t, c, url.Values{"url": {rc.URL + "/hooks"}, "events": {"booking.*"}, "allow_private": {"1"}})
	event := lastTestEventID(t, followTest(t, c, hook))
	rc.waitForID(t, event)
	hookPath := webhooksPath + "/" + hook
	delivery := deliveryID(t, waitForPage(t, c, hookPath, `data-testid="delivery-state">`).Body)
	var message int64
	if err := w.d.Read.QueryRow(`SELECT coalesce(max(id), 0) FROM messages`).Scan(&message); err != nil {
		t.Fatal(err)
	}
	if message == 0 {
		t.Fatal("creating a booking wrote no message row: the message log detail page cannot be opened")
	}

	// A weekly class (docs/classes.md) of two seats with Ana at 15:00.
	yoga := exec(`INSERT INTO services (uuid, name, duration_min, price_cents, capacity, created_at, updated_at) VALUES ('yoga', 'Yoga', 60, 1500, 2, ?, ?)`, ms, ms)
	exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (?, ?)`, yoga, w.anaID)
	day, err := time.Parse(time.DateOnly, w.Day)
	if err != nil {
		t.Fatal(err)
	}
	res = c.post(t, "/catalog/timetable", url.Values{"location": {w.Location}, "service": {strconv.FormatInt(yoga, 10)}, "provider": {w.Ana},
		"day": {strconv.Itoa(int(day.Weekday()))}, "start": {"15:00"}, "valid_from": {time.Now().Format(time.DateOnly)}})
	entry, ok := strings.CutPrefix(res.Header.Get("Location"), "/catalog/timetable/")
	if res.Status != http.StatusSeeOther || !ok {
		t.Fatalf("adding a weekly class: got %d %.1500s", res.Status, res.Body)
	}
	var session int64
	if err := w.d.Read.QueryRow(`SELECT id FROM class_sessions WHERE local_date = ?`, w.Day).Scan(&session); err != nil {
		t.Fatalf("the class session of %s: %v", w.Day, err)
	}

	// A gift card sold at the desk, and a membership plan with a member (docs/payments.md).
	res = c.post(t, "/payments/giftcards", url.Values{"amount": {"50"}, "buyer_name": {"Pedro"}, "recipient_name": {"Ana"},
		"message": {"¡Feliz cumpleaños!"}, "send_to": {"none"}, "method": {"1"}})
	giftPage := res.Header.Get("Location")
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(giftPage, "/payments/giftcards/") {
		t.Fatalf("selling a gift card: got %d %.1500s", res.Status, res.Body)
	}
	var giftCode string
	if err := w.d.Read.QueryRow(`SELECT code FROM gift_cards ORDER BY id DESC LIMIT 1`).Scan(&giftCode); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, c.post(t, "/payments/memberships/plans", url.Values{"name": {"Mensual"}, "price": {"30"},
		"sessions_" + w.Service: {"4"}}), "/payments/memberships")
	exec(`INSERT INTO memberships (uuid, plan_id, client_id, status, provider, created_at, updated_at)
		SELECT 'membership-page', max(id), ?, 'active', 'stripe', ?, ? FROM membership_plans`, w.Maria, ms, ms)

	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	explain := "/bookings/explain?" + url.Values{"location": {w.Location}, "provider": {w.Ana}, "date": {w.Day}, "time": {"12:30"}, "service": {w.Service}}.Encode()
	pages := []adminPage{
		{Path: "/login", Public: true},
		{Path: "/pay/" + pending.UUID, Public: true},
		{Path: "/pay/" + paid.UUID, Public: true},
		{Path: "/gift/" + giftCode, Public: true},
		{Path: "/membership/membership-page", Public: true},
		// An opt-out link with a token that is not one: the public error page.
		{Path: "/messages/unsubscribe/no-such-token", Public: true, Status: http.StatusNotFound},
		{Path: "/catalog/services/999999", Status: http.StatusNotFound},
		// A team link with a token that is not one (team_test.go has real ones).
		{Path: "/join?token=no-such-token", Public: true, Status: http.StatusNotFound},
	}
	for _, p := range []string{
		"/",
		"/account",
		"/settings/team",
		"/owners/1/remove", // the signed-in owner: the page asks for the extra tick
		"/settings/business",
		"/settings/integrations/api-keys",
		"/settings/integrations/api-keys/" + key + "/revoke",
		"/settings/integrations/mcp",
		"/catalog/services",
		"/catalog/services/new",
		"/catalog/services/" + w.Service,
		"/catalog/resources",
		"/catalog/resources/" + id(room),
		"/catalog/resources/" + id(room) + "/delete",
		"/catalog/services/" + w.Service + "/resources",
		"/catalog/services/" + w.Service + "/visit",
		"/catalog/categories",
		"/catalog/categories/" + id(category),
		"/catalog/categories/" + id(category) + "/delete",
		"/catalog/locations",
		"/catalog/locations/new",
		"/catalog/locations/" + w.Location,
		"/catalog/providers",
		"/catalog/providers/new",
		"/catalog/providers/" + w.Ana,
		"/catalog/custom-attributes",
		"/catalog/custom-attributes/new",
		"/catalog/custom-attributes/" + id(attribute),
		"/catalog/custom-attributes/" + id(attribute) + "/delete",
		"/catalog/products",
		"/catalog/products/new",
		"/catalog/products/" + id(product),
		webhooksPath,
		webhooksPath + "/new",
		hookPath,
		hookPath + "/edit",
		hookPath + "/delete",
		hookPath + "/rotate",
		hookPath + "/deliveries/" + delivery,
		"/clients",
		"/clients/new",
		"/clients/" + w.Maria,
		"/clients/" + w.Maria + "/deactivate",
		"/clients/" + w.Maria + "/erase",
		"/bookings",
		w.dayPath(),
		"/bookings/day?" + url.Values{"location": {w.Location}, "date": {w.Day}, "by": {"resources"}}.Encode(),
		"/bookings/week?" + url.Values{"location": {w.Location}, "date": {w.Day}}.Encode(),
		"/bookings/agenda?" + url.Values{"location": {w.Location}, "date": {w.Day}}.Encode(),
		"/schedule?" + url.Values{"location": {w.Location}, "date": {w.Day}, "view": {"week"}}.Encode(),
		explain,
		"/bookings/new",
		"/bookings/visits/new",
		"/bookings/waitlist",
		"/bookings/quick?" + url.Values{"location": {w.Location}, "date": {w.Day}, "time": {"10:00"}, "client_q": {"a"}}.Encode(),
		"/bookings/" + id(bookingID),
		"/bookings/" + id(bookingID) + "/cancel",
		"/bookings/" + id(bookingID) + "/move",
		"/settings/messages",
		"/settings/messages/templates",
		"/settings/messages/texts",
		"/settings/messages/rules",
		"/settings/messages/whatsapp",
		"/settings/messages/inbox",
		"/settings/messages/templates/confirmation/es",
		"/settings/messages/log",
		"/settings/messages/log/" + id(message),
		"/payments",
		"/payments/sales",
		"/payments/" + id(pending.ID),
		"/payments/" + id(paid.ID),
		"/payments/sales/" + id(sale),
		"/payments/giftcards",
		giftPage,
		"/payments/memberships",
		"/settings/payments",
		"/settings/cancellation",
		"/catalog/timetable",
		"/catalog/timetable/" + entry,
		"/bookings/sessions/" + id(session),
		"/bookings/sessions/" + id(session) + "/cancel",
		"/settings/classes",
		"/settings/booking-site",
		"/settings/activity",
		"/settings/data",
		"/settings/data/import",
		"/reports",
		"/reports?" + url.Values{"range": {"custom"}, "from": {"2026-01-01"}, "to": {"2026-12-31"}}.Encode(),
	} {
		pages = append(pages, adminPage{Path: p})
	}
	return pages
}

// adminPage is one page of seededPages.
type adminPage struct {
	Path string
	// Public pages are opened signed out (sign-in redirects a signed-in owner).
	Public bool
	// Status is the page's HTTP status when not 200 (error pages).
	Status int
}

// get opens p the way it is meant to be seen: signed in with c, or signed out.
func (p adminPage) get(t *testing.T, ts *testServer, c *client) response {
	t.Helper()
	if p.Public {
		c = ts.newClient(t)
	}
	res := c.get(t, p.Path)
	want := p.Status
	if want == 0 {
		want = http.StatusOK
	}
	if res.Status != want {
		t.Errorf("GET %s: got %d, want %d; body:\n%.1500s", p.Path, res.Status, want, res.Body)
	}
	return res
}

// notPages are GET routes that answer with a redirect, a file or a fragment rather than a
// page: the code step without a password step behind it goes back to /login
// (twofactor_test.go covers the page); the CSV downloads have tests of their own
// (export_test.go); the quick form's client list and a dropped booking's question are fragments
// (bookings_quick_test.go, bookings_drag_browser_test.go).
var notPages = map[string]bool{"/settings/integrations": true, "/owners": true, "/login/code": true, "/bookings/calendar": true,
	"/bookings/csv": true, "/clients/csv": true, "/payments/csv": true, "/payments/sales/csv": true, "/settings/messages/log/csv": true,
	"/clients/{id}/export": true, "/settings/integrations/webhooks/{id}/csv": true,
	"/settings/data/export": true, "/bookings/quick/clients": true, "/bookings/{id}/move/check": true}

// notPage reports whether path, a route with its parameters filled in ("/clients/1/export"), is
// one of notPages.
func notPage(path string) bool {
	param := regexp.MustCompile(`\{[^}]+\}`)
	for route := range notPages {
		if regexp.MustCompile("^" + param.ReplaceAllString(route, "[^/]+") + "$").MatchString(path) {
			return true
		}
	}
	return false
}

// Every GET route of the route table has a page in seededPages, so tests over that list (the
// Spanish page test here, the browser audits) cover pages added later.
func TestPagesCoverEveryRoute(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	pages := seededPages(t, ts, c)
	param := regexp.MustCompile(`\\\{[^}]+\\\}`)
	err := chi.Walk(admin.New(nil, admin.Options{}).Routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method != http.MethodGet || notPages[route] || route == "/setup" {
			return nil
		}
		pattern := regexp.MustCompile("^" + param.ReplaceAllString(regexp.QuoteMeta(route), "[^/]+") + `(\?.*)?$`)
		for _, p := range pages {
			if pattern.MatchString(p.Path) {
				return nil
			}
		}
		t.Errorf("GET %s has no page in seededPages", route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		p.get(t, ts, c)
	}
}
