package admin_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/app/messages/smtptest"
	"frontdesk/app/payments/stripe/stripetest"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// trailEntry is one row of the activity table as tests look at it.
type trailEntry struct {
	Kind, ID, Label, Action, Entity string
	EntityID                        int64
	Changes, IP                     string
}

// trail reads the activity entries about one entity, oldest first.
func trail(t *testing.T, d *db.DB, entity, id string) []trailEntry {
	t.Helper()
	rows, err := d.Read.Query(`SELECT actor_kind, actor_id, actor_label, action, entity, entity_id, changes, ip
		FROM activity WHERE entity = ? AND entity_id = ? ORDER BY id`, entity, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []trailEntry
	for rows.Next() {
		var e trailEntry
		if err := rows.Scan(&e.Kind, &e.ID, &e.Label, &e.Action, &e.Entity, &e.EntityID, &e.Changes, &e.IP); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// ownerID is the id of the owner account with email.
func ownerID(t *testing.T, d *db.DB, email string) string {
	t.Helper()
	var id string
	if err := d.Read.QueryRow(`SELECT id FROM owners WHERE email = ?`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A booking made in the admin by one owner, moved by another, cancelled through /v3 with a key:
// each change leaves exactly one entry naming who made it; a move refused by the overlap check
// leaves none. The booking's page shows its history.
func TestActivityNamesWhoChangedABooking(t *testing.T) {
	ts := startServer(t)
	first := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	const second = "second@example.com" // the receptionist who moves the booking
	wantRedirect(t, first.post(t, "/owners", url.Values{"owner_email": {second}, "password": {ownerPassword}}), "/settings/team")
	ctx := context.Background()
	firstID, _ := strconv.ParseInt(ownerID(t, d, ownerEmail), 10, 64)
	secondID, _ := strconv.ParseInt(ownerID(t, d, second), 10, 64)
	actor, err := staff.Get(ctx, d, firstID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := staff.ChangeRole(ctx, d, actor, secondID, staff.RoleReception, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	other := ts.newClient(t)
	other.login(t, second, ownerPassword)

	wantRedirect(t, first.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	id := between(first.get(t, w.dayPath()).Body, `data-booking="`, `"`)
	move := url.Values{"date": {w.Day}, "time": {"11:00"}, "provider": {w.Bruno}, "status": {"1"}, "notes": {"Kept <notes>"}}
	wantRedirect(t, other.post(t, "/bookings/"+id, move), "/bookings/"+id)

	// Pedro at Ana's 14:00; moving Maria's booking onto it is refused and records nothing.
	wantRedirect(t, first.post(t, "/bookings", w.booking(w.Ana, w.Pedro, "14:00")), w.dayPath())
	refused := url.Values{"date": {w.Day}, "time": {"14:15"}, "provider": {w.Ana}, "status": {"1"}}
	wantStatus(t, other.post(t, "/bookings/"+id, refused), http.StatusUnprocessableEntity)

	key := createKey(t, first, url.Values{"name": {"Front desk sync"}, "access": {"full"}})
	req, err := http.NewRequest(http.MethodPatch, ts.URL+"/v3/bookings/"+id+"/cancel", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNoContent {
		t.Fatalf("cancel through /v3: status %d", res.StatusCode)
	}
	var keyID string
	if err := d.Read.QueryRow(`SELECT id FROM api_keys WHERE name = 'Front desk sync'`).Scan(&keyID); err != nil {
		t.Fatal(err)
	}

	got := trail(t, d, "booking", id)
	want := []trailEntry{
		{Kind: "owner", ID: ownerID(t, d, ownerEmail), Label: ownerEmail, Action: "booking.created"},
		{Kind: "owner", ID: ownerID(t, d, second), Label: second, Action: "booking.moved"},
		{Kind: "api_key", ID: keyID, Label: "Front desk sync", Action: "booking.cancelled"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries for booking %s, want %d: %+v", len(got), id, len(want), got)
	}
	for i, g := range got {
		if g.Kind != want[i].Kind || g.ID != want[i].ID || g.Label != want[i].Label || g.Action != want[i].Action {
			t.Errorf("entry %d: got %s %s (%s) %s, want %s %s (%s) %s", i, g.Kind, g.ID, g.Label, g.Action,
				want[i].Kind, want[i].ID, want[i].Label, want[i].Action)
		}
		if g.IP != "127.0.0.1" {
			t.Errorf("entry %d: got address %q, want 127.0.0.1", i, g.IP)
		}
	}
	if c := got[1].Changes; !strings.Contains(c, `"provider_id":[`+w.Ana+`,`+w.Bruno+`]`) || !strings.Contains(c, `"start_at":[`) || strings.Contains(c, "notes") {
		t.Errorf("the move's changes %s: want provider_id [Ana, Bruno] and start_at, nothing unchanged", c)
	}

	page := first.get(t, "/bookings/"+id)
	wantBody(t, page, `data-testid="entity-activity"`, second, "Front desk sync")
}

// No secret reaches the trail: an API key, a webhook's signing secret, an SMTP password, the
// payment provider's keys and a new owner password are each set, each change is recorded (the
// field named, its value hidden), and neither the secrets nor anything stored for them (hashes,
// sealed blobs) appears anywhere in the activity table.
func TestActivityKeepsNoSecret(t *testing.T) {
	fake := stripetest.NewFake(t, stripetest.StartURL(t))
	ts := startServer(t, "FRONTDESK_STRIPE_API_URL="+fake.URL, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	smtp := smtptest.Start(t)
	const smtpPassword, newPassword = "smtp-Pa55word-for-activity", "a brand new passphrase"

	key := createKey(t, c, url.Values{"name": {"Sync"}, "access": {"full"}})
	_, hookSecret := createWebhook(t, c, url.Values{"url": {"http://127.0.0.1:9/hooks"}, "events": {"booking.*"}, "allow_private": {"1"}})
	wantRedirect(t, c.post(t, "/settings/messages/transport", url.Values{"host": {smtp.Host()}, "port": {strconv.Itoa(smtp.Port())},
		"security": {messages.SecurityOff}, "from_name": {"Studio"}, "from_address": {"hola@studio.example"},
		"username": {"studio"}, "password": {smtpPassword}}), "/settings/messages")
	enableStripe(t, c)
	wantRedirect(t, c.post(t, "/account/password", url.Values{"current": {ownerPassword}, "password": {newPassword}, "confirm": {newPassword}}), "/account")

	secrets := map[string]string{"API key": key, "webhook secret": hookSecret, "SMTP password": smtpPassword,
		"Stripe secret key": stripeKey, "Stripe webhook secret": stripeSecret, "new password": newPassword, "old password": ownerPassword}
	stored := func(what, query string) {
		t.Helper()
		rows, err := d.Read.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for i := 0; rows.Next(); i++ {
			var v []byte
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			if len(v) > 0 {
				secrets[fmt.Sprintf("%s %d", what, i)] = string(v)
				secrets[fmt.Sprintf("%s %d (hex)", what, i)] = hex.EncodeToString(v)
				secrets[fmt.Sprintf("%s %d (base64)", what, i)] = base64.StdEncoding.EncodeToString(v)
			}
		}
	}
	stored("password hash", `SELECT password_hash FROM owners`)
	stored("API key hash", `SELECT key_hash FROM api_keys`)
	stored("webhook secret", `SELECT secret FROM webhook_secrets`)
	stored("sealed SMTP password", `SELECT smtp_password_sealed FROM message_settings`)
	stored("sealed Stripe key", `SELECT secret_key_sealed FROM payment_provider_credentials`)
	stored("sealed Stripe webhook secret", `SELECT webhook_secret_sealed FROM payment_provider_credentials`)

	var all string
	if err := d.Read.QueryRow(`SELECT group_concat(id || '|' || at || '|' || actor_kind || '|' || actor_id || '|' || actor_label || '|' ||
		action || '|' || entity || '|' || entity_id || '|' || changes || '|' || ip, char(10)) FROM activity`).Scan(&all); err != nil {
		t.Fatal(err)
	}
	for what, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("the activity table holds the %s", what)
		}
	}
	for _, want := range []string{
		`apikey.created|apikey`, `"name":[null,"Sync"]`,
		`webhook.created|webhook`, `"secret":[null,"[hidden]"]`,
		`settings.updated|settings.messages`, `"smtp_password_sealed":[`,
		`settings.updated|settings.payments`, `"stripe.secret_key":[null,"[hidden]"]`, `"stripe.webhook_secret":[null,"[hidden]"]`,
		`owner.password_changed|owner`, `"password_hash":["[hidden]","[hidden]"]`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the activity table lacks %s:\n%s", want, all)
		}
	}
}

// Settings → Activity lists entries newest first and filters them by person and by dates (in
// the business's zone); a date that is not one is a form error, not a 500.
func TestActivityPageFilters(t *testing.T) {
	ts := startServer(t)
	first := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	const second = "second@example.com"
	wantRedirect(t, first.post(t, "/owners", url.Values{"owner_email": {second}, "password": {ownerPassword}}), "/settings/team")
	other := ts.newClient(t)
	other.login(t, second, ownerPassword)
	wantRedirect(t, other.post(t, "/bookings", w.booking(w.Ana, w.Maria, "10:00")), w.dayPath())
	// An entry from long ago, as the trail would hold it.
	if _, err := d.Write.Exec(`INSERT INTO activity (at, actor_kind, actor_id, actor_label, action, entity, entity_id)
		VALUES (?, 'api_key', '9', 'Old sync', 'client.updated', 'client', ?)`, time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC).UnixMilli(), w.mariaID); err != nil {
		t.Fatal(err)
	}

	page := first.get(t, "/settings/activity")
	wantStatus(t, page, http.StatusOK)
	wantBody(t, page, `data-testid="activity-filter"`, "booking.created", "owner.created", "Old sync", second,
		`<option value="owner:`+ownerID(t, d, second)+`">`+second+`</option>`)

	mine := first.get(t, "/settings/activity?"+url.Values{"actor": {"owner:" + ownerID(t, d, second)}}.Encode())
	wantStatus(t, mine, http.StatusOK)
	wantBody(t, mine, "booking.created")
	if list := mine.Body[strings.Index(mine.Body, `data-testid="activity-list"`):]; strings.Contains(list, "Old sync") || strings.Contains(list, "owner.created") {
		t.Error("filtered by the second owner, the page shows others' entries")
	}

	january := first.get(t, "/settings/activity?"+url.Values{"from": {"2026-01-15"}, "to": {"2026-01-15"}}.Encode())
	wantStatus(t, january, http.StatusOK)
	wantBody(t, january, "Old sync", "client.updated")
	if n := strings.Count(january.Body, `data-testid="activity-row"`); n != 1 {
		t.Errorf("15 January shows %d entries, want 1", n)
	}
	wantStatus(t, first.get(t, "/settings/activity?from=yesterday"), http.StatusUnprocessableEntity)

	wantBody(t, first.get(t, "/clients/"+w.Maria), `data-testid="entity-activity"`, "Old sync")
}
