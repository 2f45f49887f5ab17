package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestConnectV3IntegrationsEndToEnd runs the two integrations of issue 10 against the real
// server with the demo business, configured only through the CLI as an operator would:
//   - a conversational booking assistant whose key has --z-means-local: it reads slots and books,
//     reschedules and looks up bookings sending local times with "Z" and provider_id;
//   - a CRM behind a webhook registered with --key-mode secret-text: it verifies the signature
//     with the whole secret as the HMAC key (its own code, nothing shared with the signer) and
//     keeps each booking from the event data, reading the status from status_id;
//   - beside it a standard receiver (the Standard Webhooks library) on the same events.
//
// A secret rotation in the middle must not break either receiver.
func TestConnectV3IntegrationsEndToEnd(t *testing.T) {
	dir := newDataDir(t)
	crm := newCRM(t)
	std := newCRM(t)
	_, crmSecret, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", crm.srv.URL, "--events", "booking.*", "--allow-private", "--key-mode", "secret-text")
	crm.setSecrets(false, strings.TrimSpace(crmSecret))
	if strings.TrimSpace(crmSecret) == "" {
		t.Fatalf("webhook create --key-mode secret-text: %s", stderr)
	}
	_, stdSecret, _ := run(t, "", "webhook", "create", "--data", dir, "--url", std.srv.URL, "--events", "booking.*", "--allow-private")
	std.setSecrets(true, strings.TrimSpace(stdSecret))
	code, key, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "assistant", "--scopes", "bookings:read,bookings:write", "--z-means-local")
	if code != 0 {
		t.Fatalf("apikey create: exit %d, %s", code, stderr)
	}
	key = strings.TrimSpace(key)

	base := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--demo", "--webhook-allow-private"}).URL
	api := func(method, path string, body any) (int, []byte) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			raw, _ := json.Marshal(body)
			rd = strings.NewReader(string(raw))
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, raw
	}

	// The assistant offers the first free haircut slot of the coming week and books it the way
	// it always has: the slot's local date and time, written with Z.
	from := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	to := time.Now().AddDate(0, 0, 7).Format("2006-01-02")
	status, raw := api("GET", "/v3/available_slots?location_id=1&service_id=1&start_date="+from+"&end_date="+to, nil)
	var slots struct {
		Data struct {
			Slots []struct {
				Date       string `json:"date"`
				StartTime  string `json:"start_time"`
				StartsAt   string `json:"starts_at"`
				ProviderID int64  `json:"provider_id"`
			} `json:"slots"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &slots); status != 200 || err != nil || len(slots.Data.Slots) < 2 {
		t.Fatalf("available slots: %d %s", status, raw)
	}
	first := slots.Data.Slots[0]
	last := slots.Data.Slots[len(slots.Data.Slots)-1]
	status, raw = api("POST", "/v3/bookings", map[string]any{"service_id": 1, "provider_id": first.ProviderID, "client_id": 1,
		"location_id": 1, "status_id": 1, "start_time": first.Date + "T" + first.StartTime + ":00Z"})
	var b struct {
		ID        int64  `json:"id"`
		StartTime string `json:"start_time"`
	}
	if err := json.Unmarshal(raw, &b); status != 201 || err != nil || b.StartTime != first.StartsAt {
		t.Fatalf("book %s %s as local Z: %d %s; want the slot's own instant %s", first.Date, first.StartTime, status, raw, first.StartsAt)
	}
	crm.wait(t, b.ID, 1)

	// Rotation (the CRM deploys the new secret later): both secrets verify meanwhile.
	// (The CLI runs on the real clock here, as the server does: run's fixed clock would start
	// the grace period in the past.)
	var out strings.Builder
	if code := Run(context.Background(), Env{Args: []string{"webhook", "rotate-secret", "1", "--grace", "1h", "--data", dir},
		Stdout: &out, Stderr: io.Discard}); code != 0 {
		t.Fatalf("rotate-secret: exit %d", code)
	}
	rotated := out.String()
	crm.setSecrets(false, strings.TrimSpace(crmSecret), strings.TrimSpace(rotated))

	// Reschedule to the week's last slot (with provider_id kept), then cancel.
	status, raw = api("PATCH", fmt.Sprintf("/v3/bookings/%d", b.ID), map[string]any{
		"provider_id": last.ProviderID, "start_time": last.Date + "T" + last.StartTime + ":00Z"})
	if status != 200 || !strings.Contains(string(raw), `"start_time":"`+last.StartsAt+`"`) {
		t.Fatalf("reschedule: %d %s; want %s", status, raw, last.StartsAt)
	}
	crm.wait(t, b.ID, 2)
	status, raw = api("GET", fmt.Sprintf("/v3/bookings?provider_id=%d&start_date=%s&end_date=%s", last.ProviderID, last.Date, last.Date), nil)
	if status != 200 || !strings.Contains(string(raw), fmt.Sprintf(`"id":%d,`, b.ID)) {
		t.Fatalf("bookings by provider_id: %d %s", status, raw)
	}
	if status, raw = api("PATCH", fmt.Sprintf("/v3/bookings/%d/cancel", b.ID), nil); status != 204 {
		t.Fatalf("cancel: %d %s", status, raw)
	}
	crm.wait(t, b.ID, 3)

	got := crm.booking(b.ID)
	status, raw = api("GET", fmt.Sprintf("/v3/bookings/%d", b.ID), nil)
	var want crmRecord
	json.Unmarshal(raw, &want)
	if status != 200 || got != want || got.StatusID != 5 || got.StartTime != last.StartsAt {
		t.Errorf("the CRM's copy %+v, the booking %+v: want them equal, cancelled (status_id 5), at %s", got, want, last.StartsAt)
	}
	std.wait(t, b.ID, 3)
	if len(crm.refused())+len(std.refused()) > 0 {
		t.Errorf("refused deliveries: literal %v, standard %v", crm.refused(), std.refused())
	}
	for _, d := range crm.deliveries() {
		if len(strings.Fields(d.signature)) == 2 && !d.verifiedWith[1] {
			t.Errorf("during the rotation a delivery did not verify with the new secret")
		}
		if !d.verifiedWith[0] {
			t.Errorf("a delivery did not verify with the secret the CRM started with (grace period)")
		}
	}
}

// crmRecord is the CRM's copy of a booking: the event fields it reads.
type crmRecord struct {
	ID        int64  `json:"id"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
	StatusID  int64  `json:"status_id"`
	Price     string `json:"price"`
	ListPrice string `json:"list_price"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

type crmDelivery struct {
	signature    string
	verifiedWith map[int]bool // index into secrets
}

// crm is a receiver that verifies every request and keeps the newest copy of each booking.
type crm struct {
	srv      *httptest.Server
	standard bool // verify with the Standard Webhooks library instead of the literal key
	mu       sync.Mutex
	secrets  []string
	got      []crmDelivery
	bad      []string
	events   map[int64]int
	bookings map[int64]crmRecord
}

func newCRM(t *testing.T) *crm {
	c := &crm{events: map[int64]int{}, bookings: map[int64]crmRecord{}}
	c.srv = httptest.NewServer(http.HandlerFunc(c.receive))
	t.Cleanup(c.srv.Close)
	return c
}

// setSecrets sets how the receiver verifies and the secrets it holds, oldest first.
func (c *crm) setSecrets(standard bool, secrets ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.standard, c.secrets = standard, secrets
}

func (c *crm) receive(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	d := crmDelivery{signature: r.Header.Get("webhook-signature"), verifiedWith: map[int]bool{}}
	for i, s := range c.secrets {
		d.verifiedWith[i] = c.verify(s, r.Header, body)
	}
	c.got = append(c.got, d)
	if !d.verifiedWith[0] && !d.verifiedWith[len(c.secrets)-1] {
		c.bad = append(c.bad, r.Header.Get("webhook-id"))
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var e struct {
		Data crmRecord `json:"data"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	if cur, ok := c.bookings[e.Data.ID]; !ok || cur.UpdatedAt <= e.Data.UpdatedAt {
		c.bookings[e.Data.ID] = e.Data
	}
	c.events[e.Data.ID]++
	w.WriteHeader(http.StatusNoContent)
}

func (c *crm) verify(secret string, h http.Header, body []byte) bool {
	if c.standard {
		wh, err := standardwebhooks.NewWebhook(secret)
		return err == nil && wh.Verify(body, h) == nil
	}
	mac := hmac.New(sha256.New, []byte(secret)) // "HMAC-SHA256 with the secret as key"
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

// wait waits until n events about booking id arrived.
func (c *crm) wait(t *testing.T, id int64, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		c.mu.Lock()
		got := c.events[id]
		c.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver got %d events about booking %d, want %d (refused: %v)", got, id, n, c.refused())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (c *crm) booking(id int64) crmRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bookings[id]
}

func (c *crm) refused() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bad...)
}

func (c *crm) deliveries() []crmDelivery {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]crmDelivery(nil), c.got...)
}
