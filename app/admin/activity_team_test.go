package admin_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"frontdesk/app/messages"
	"frontdesk/app/staff"
	"frontdesk/db"
)

// allTrail is every column of every activity entry as one text, to search for what must never
// be there.
func allTrail(t *testing.T, d *db.DB) string {
	t.Helper()
	var all string
	if err := d.Read.QueryRow(`SELECT coalesce(group_concat(id || '|' || at || '|' || actor_kind || '|' || actor_id || '|' || actor_label || '|' ||
		action || '|' || entity || '|' || entity_id || '|' || changes || '|' || ip, char(10)), '') FROM activity`).Scan(&all); err != nil {
		t.Fatal(err)
	}
	return all
}

// lastEntryID is the id of the newest activity entry (0: none); entries after it are a
// test's own.
func lastEntryID(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var id int64
	if err := d.Read.QueryRow(`SELECT coalesce(max(id), 0) FROM activity`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// entriesOf returns the entries with action after entry since, oldest first.
func entriesOf(t *testing.T, d *db.DB, since int64, action string) []trailEntry {
	t.Helper()
	rows, err := d.Read.Query(`SELECT actor_kind, actor_id, actor_label, action, entity, entity_id, changes, ip
		FROM activity WHERE action = ? AND id > ? ORDER BY id`, action, since)
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

// wantEntry fails unless exactly one entry after since has action, made by the account (kind owner) with
// id and email, about entity, and its changes hold every part.
func wantEntry(t *testing.T, d *db.DB, since int64, action, actorID, actorEmail, entity string, parts ...string) trailEntry {
	t.Helper()
	es := entriesOf(t, d, since, action)
	if len(es) != 1 {
		t.Fatalf("%d %s entries, want 1: %+v", len(es), action, es)
	}
	e := es[0]
	if e.Kind != "owner" || e.ID != actorID || e.Label != actorEmail || e.Entity != entity {
		t.Errorf("%s: by %s %s %q about %s, want owner %s %q about %s", action, e.Kind, e.ID, e.Label, e.Entity, actorID, actorEmail, entity)
	}
	for _, p := range parts {
		if !strings.Contains(e.Changes, p) {
			t.Errorf("%s: changes %s lack %s", action, e.Changes, p)
		}
	}
	return e
}

// The team's changes are in the trail, each once, by whoever made it: a manager's invitation,
// the invited person joining (as themself), a change of role, disabling and enabling, a
// password-reset link and its use, and the owner's team setting. A refused change leaves no
// entry, and neither the links' tokens, their hashes nor a password appear anywhere.
func TestTeamChangesInTrail(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	maxID, me := ownerID(t, d, "max@example.com"), ownerID(t, d, ownerEmail)
	since := lastEntryID(t, d)

	res := max.post(t, "/settings/team/invitations", url.Values{"email": {"rita@example.com"}, "role": {"reception"}})
	wantStatus(t, res, http.StatusOK)
	invite := joinLink.FindStringSubmatch(res.Body)
	if invite == nil {
		t.Fatalf("no link to copy:\n%.2000s", res.Body)
	}
	wantEntry(t, d, since, "owner.invited", maxID, "max@example.com", "staff_invitation", `"email":[null,"rita@example.com"]`, `"role":[null,"reception"]`)

	const ritaPassword, resetPassword = "rita's first password", "rita's second password"
	rita := ts.newClient(t)
	wantRedirect(t, rita.post(t, "/join", url.Values{"token": {invite[1]}, "name": {"Rita"}, "password": {ritaPassword}, "confirm": {ritaPassword}}), "/")
	ritaID := ownerID(t, d, "rita@example.com")
	joined := wantEntry(t, d, since, "owner.joined", ritaID, "rita@example.com", "owner", `"name":[null,"Rita"]`, `"role":[null,"reception"]`)
	if joined.EntityID != mustID(t, ritaID) {
		t.Errorf("owner.joined is about account %d, want %s", joined.EntityID, ritaID)
	}

	// Refused: a manager may not touch an owner, nor may the last owner be demoted.
	wantStatus(t, max.post(t, "/settings/team/"+me+"/disable", nil), http.StatusForbidden)
	wantStatus(t, max.post(t, "/settings/team/"+me+"/role", url.Values{"role": {"reception"}}), http.StatusForbidden)
	wantRedirect(t, c.post(t, "/settings/team/"+me+"/role", url.Values{"role": {"manager"}}), "/settings/team")
	wantBody(t, c.get(t, "/settings/team"), "This is the only active owner")
	if n := len(entriesOf(t, d, since, "owner.role_changed")) + len(entriesOf(t, d, since, "owner.disabled")); n != 0 {
		t.Fatalf("refused changes left %d entries", n)
	}

	wantRedirect(t, max.post(t, "/settings/team/"+ritaID+"/role", url.Values{"role": {"manager"}}), "/settings/team")
	wantEntry(t, d, since, "owner.role_changed", maxID, "max@example.com", "owner", `"role":["reception","manager"]`, `"email":[null,"rita@example.com"]`)
	wantRedirect(t, max.post(t, "/settings/team/"+ritaID+"/disable", nil), "/settings/team")
	wantEntry(t, d, since, "owner.disabled", maxID, "max@example.com", "owner", `"disabled":[false,true]`)
	wantRedirect(t, max.post(t, "/settings/team/"+ritaID+"/enable", nil), "/settings/team")
	wantEntry(t, d, since, "owner.enabled", maxID, "max@example.com", "owner", `"disabled":[true,false]`)

	res = max.post(t, "/settings/team/"+ritaID+"/reset", nil)
	reset := joinLink.FindStringSubmatch(res.Body)
	if reset == nil {
		t.Fatalf("no reset link to copy (%d):\n%.2000s", res.Status, res.Body)
	}
	wantEntry(t, d, since, "owner.reset_link_created", maxID, "max@example.com", "owner", `"email":[null,"rita@example.com"]`)
	wantRedirect(t, ts.newClient(t).post(t, "/join", url.Values{"token": {reset[1]}, "password": {resetPassword}, "confirm": {resetPassword}}), "/")
	wantEntry(t, d, since, "owner.password_reset", ritaID, "rita@example.com", "owner")

	wantRedirect(t, c.post(t, "/settings/team/settings", url.Values{"providers_edit_own_hours": {"1"}}), "/settings/team")
	wantEntry(t, d, since, "settings.updated", me, ownerEmail, "settings.team", `"providers_edit_own_hours":[false,true]`)

	all := allTrail(t, d)
	for what, s := range map[string]string{"invitation token": invite[1], "reset token": reset[1], "first password": ritaPassword,
		"reset password": resetPassword, "password hash": "$argon2"} {
		if strings.Contains(all, s) {
			t.Errorf("the trail holds the %s", what)
		}
		sum := sha256.Sum256([]byte(s))
		if strings.Contains(all, hex.EncodeToString(sum[:])) {
			t.Errorf("the trail holds the hash of the %s", what)
		}
	}
	// The Accounts kind of the filter lists them.
	page := c.get(t, "/settings/activity?kind=owner")
	wantBody(t, page, "owner.invited", "owner.joined", "owner.role_changed", "owner.disabled", "owner.enabled", "owner.password_reset")
}

// Time off and closures are in the trail: a provider's own time off added and removed by its
// provider account (while the owner allows it), and a closure added and removed by a manager —
// each entry by that account, about the provider or location, with the times and reason.
func TestTimeOffAndClosuresInTrail(t *testing.T) {
	ts := startServer(t)
	c := ts.setupOwner(t)
	w := seedBookingWorld(t, ts)
	d := openBookingDB(t, ts)
	ana := addStaff(t, ts, d, "ana@example.com", staff.RoleProvider, w.anaID)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	anaID, maxID := ownerID(t, d, "ana@example.com"), ownerID(t, d, "max@example.com")
	wantRedirect(t, c.post(t, "/settings/team/settings", url.Values{"providers_edit_own_hours": {"1"}}), "/settings/team")
	since := lastEntryID(t, d)

	// Refused input writes nothing.
	wantStatus(t, ana.post(t, "/catalog/providers/"+w.Ana+"/time-off", url.Values{"from_date": {w.Day}, "from_time": {"15:00"}, "to_date": {w.Day}, "to_time": {"14:00"}}), http.StatusUnprocessableEntity)
	if n := len(entriesOf(t, d, since, "provider.time_off_added")); n != 0 {
		t.Fatalf("refused time off left %d entries", n)
	}
	wantRedirect(t, ana.post(t, "/catalog/providers/"+w.Ana+"/time-off", url.Values{"from_date": {w.Day}, "from_time": {"14:00"}, "to_date": {w.Day}, "to_time": {"15:30"}, "reason": {"Dentist"}}),
		"/catalog/providers/"+w.Ana)
	e := wantEntry(t, d, since, "provider.time_off_added", anaID, "ana@example.com", "provider", `"time_off.reason":[null,"Dentist"]`, `"time_off.starts_at":[null,"`)
	if e.EntityID != w.anaID {
		t.Errorf("time off is recorded about provider %d, want %d", e.EntityID, w.anaID)
	}
	var off string
	if err := d.Read.QueryRow(`SELECT id FROM provider_time_off WHERE provider_id = ?`, w.anaID).Scan(&off); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, ana.post(t, "/catalog/providers/"+w.Ana+"/time-off/"+off+"/delete", nil), "/catalog/providers/"+w.Ana)
	wantEntry(t, d, since, "provider.time_off_removed", anaID, "ana@example.com", "provider", `"time_off.reason":["Dentist",null]`)

	wantRedirect(t, max.post(t, "/catalog/locations/"+w.Location+"/closures", url.Values{"date": {w.Day}, "reason": {"Inventory"}}), "/catalog/locations/"+w.Location)
	wantEntry(t, d, since, "location.closure_added", maxID, "max@example.com", "location", `"closure.date":[null,"`+w.Day+`"]`, `"closure.reason":[null,"Inventory"]`)
	var closure string
	if err := d.Read.QueryRow(`SELECT id FROM location_closures WHERE location_id = ?`, w.norteID).Scan(&closure); err != nil {
		t.Fatal(err)
	}
	wantRedirect(t, max.post(t, "/catalog/locations/"+w.Location+"/closures/"+closure+"/delete", nil), "/catalog/locations/"+w.Location)
	wantEntry(t, d, since, "location.closure_removed", maxID, "max@example.com", "location", `"closure.date":["`+w.Day+`",null]`)
}

// A webhook paused, resumed (pausing a paused one records nothing) and a delivery resent by
// the owner: each is one entry by the owner about the webhook, and the signing secret is in
// none of them.
func TestWebhookOperationsInTrail(t *testing.T) {
	ts := startServer(t, "FRONTDESK_WEBHOOK_ALLOW_PRIVATE=true")
	c := ts.setupOwner(t)
	d := openBookingDB(t, ts)
	me := ownerID(t, d, ownerEmail)
	rc := newReceiver(t)
	id, secret := createWebhook(t, c, webhookForm(rc.URL+"/hooks", "booking.*"))
	path := webhooksPath + "/" + id
	event := lastTestEventID(t, followTest(t, c, id))
	rc.waitForID(t, event)
	delivery := deliveryID(t, waitForPage(t, c, path, "1 succeeded · 0 failed · 0 pending · 0 missed").Body)
	since := lastEntryID(t, d)

	wantRedirect(t, c.post(t, path+"/pause", nil), path)
	e := wantEntry(t, d, since, "webhook.paused", me, ownerEmail, "webhook", `"paused":[false,true]`)
	if strconv.FormatInt(e.EntityID, 10) != id {
		t.Errorf("webhook.paused is about webhook %d, want %s", e.EntityID, id)
	}
	wantRedirect(t, c.post(t, path+"/pause", nil), path) // already paused: nothing changes, nothing recorded
	wantRedirect(t, c.post(t, path+"/resume", nil), path)
	wantEntry(t, d, since, "webhook.resumed", me, ownerEmail, "webhook", `"paused":[true,false]`)
	wantRedirect(t, c.post(t, path+"/deliveries/"+delivery+"/resend", nil), path+"/deliveries/"+delivery)
	wantEntry(t, d, since, "webhook.delivery_resent", me, ownerEmail, "webhook", `"delivery_id":[null,`+delivery+`]`, `"event_id":[null,"`+event+`"]`)
	if all := allTrail(t, d); strings.Contains(all, secret) || strings.Contains(all, "whsec_") {
		t.Error("the trail holds the webhook's secret")
	}
}

// Switching a kind of customer message off, or its copy to the owner on, is in the trail as
// part of the Messages settings' entry, by the manager who saved it.
func TestMessageKindSwitchesInTrail(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	d := openBookingDB(t, ts)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	since := lastEntryID(t, d)
	form := url.Values{"offsets": {"24h, 2h"}, "copy_confirmation": {"1"}}
	for _, k := range messages.Kinds {
		if k != messages.Cancelled {
			form.Set("on_"+string(k), "1")
		}
	}
	wantRedirect(t, max.post(t, "/settings/messages/options", form), "/settings/messages")
	wantEntry(t, d, since, "settings.updated", ownerID(t, d, "max@example.com"), "max@example.com", "settings.messages",
		`"kind.cancelled.enabled":[true,false]`, `"kind.confirmation.owner_copy":[false,true]`)
	if e := entriesOf(t, d, since, "settings.updated")[0]; strings.Contains(e.Changes, "kind.rescheduled") {
		t.Errorf("a kind that did not change is in the entry: %s", e.Changes)
	}
}

// A product created and then changed by a manager is in the trail, each once, with the fields
// that changed; saving it unchanged records nothing.
func TestProductsInTrail(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	d := openBookingDB(t, ts)
	max := addStaff(t, ts, d, "max@example.com", staff.RoleManager, 0)
	maxID := ownerID(t, d, "max@example.com")
	since := lastEntryID(t, d)
	wantRedirect(t, max.post(t, "/catalog/products", url.Values{"name": {"Shampoo"}, "price": {"12.50"}, "sku": {"SH-1"}, "active": {"1"}}), "/catalog/products")
	e := wantEntry(t, d, since, "product.created", maxID, "max@example.com", "product", `"name":[null,"Shampoo"]`, `"price_cents":[null,1250]`)
	id := strconv.FormatInt(e.EntityID, 10)
	edit := url.Values{"name": {"Shampoo"}, "price": {"14.00"}, "sku": {"SH-1"}, "active": {"1"}}
	res := max.post(t, "/catalog/products/"+id, edit)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("update product: %d\n%.1500s", res.Status, res.Body)
	}
	max.post(t, "/catalog/products/"+id, edit) // unchanged
	u := wantEntry(t, d, since, "product.updated", maxID, "max@example.com", "product", `"price_cents":[1250,1400]`)
	if strings.Contains(u.Changes, `"name"`) {
		t.Errorf("the update records a field that did not change: %s", u.Changes)
	}
}

// A pack recorded at the desk by reception is on the client's history in the trail: one
// entry by that account, with the pack's service and sessions.
func TestPacksInTrail(t *testing.T) {
	ts := startServer(t)
	ts.setupOwner(t)
	w := seedClassWorld(t, ts)
	d := openBookingDB(t, ts)
	rita := addStaff(t, ts, d, "rita@example.com", staff.RoleReception, 0)
	since := lastEntryID(t, d)
	wantRedirect(t, rita.post(t, "/clients/"+w.Maria+"/packs", url.Values{"pack_service": {w.Pack}}), "/clients/"+w.Maria)
	e := wantEntry(t, d, since, "client.pack_credited", ownerID(t, d, "rita@example.com"), "rita@example.com", "client",
		`"service":[null,"Massage pack"]`, `"sessions_total":[null,5]`)
	if e.EntityID != w.mariaID {
		t.Errorf("the pack is recorded about client %d, want Maria %d", e.EntityID, w.mariaID)
	}
}
