package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"frontdesk/app/buildinfo"
)

// The whole path of SPEC §6 in one process: a webhook registered by the CLI, a client created
// through POST /v3/clients, the signed client.created event at a real receiver, and the
// dispatcher's metrics on /metrics.
func TestClientWebhooksEndToEnd(t *testing.T) {
	dir := newDataDir(t)
	type delivery struct {
		header http.Header
		body   []byte
	}
	var mu sync.Mutex
	var got []delivery
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, delivery{r.Header.Clone(), body})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)

	code, secret, stderr := run(t, "", "webhook", "create", "--data", dir, "--url", recv.URL+"/in", "--events", "client.*", "--allow-private")
	if code != 0 {
		t.Fatalf("webhook create: exit %d, %s", code, stderr)
	}
	code, key, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "e2e", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: exit %d, %s", code, stderr)
	}
	secret, key = strings.TrimSpace(secret), strings.TrimSpace(key)

	srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--webhook-allow-private", "--metrics-addr", "127.0.0.1:0"})
	base := srv.URL

	call := func(method, path, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
		return raw
	}
	created := call(http.MethodPost, "/v3/clients", `{"first_name":"Ana","last_name":"Rojas","email":"ana@example.com"}`)
	var client struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(created, &client)

	waitDeliveries := func(n int) []delivery {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			out := append([]delivery(nil), got...)
			mu.Unlock()
			if len(out) >= n {
				return out
			}
			if time.Now().After(deadline) {
				t.Fatalf("receiver got %d deliveries, want %d", len(out), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	d := waitDeliveries(1)[0]
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(d.body, d.header); err != nil {
		t.Errorf("client.created does not verify with the Standard Webhooks library: %v", err)
	}
	var env struct {
		Type      string          `json:"type"`
		Timestamp string          `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(d.body, &env); err != nil {
		t.Fatal(err)
	}
	if env.Type != "client.created" || !strings.HasSuffix(env.Timestamp, "Z") {
		t.Errorf("envelope type %q timestamp %q, want client.created in UTC", env.Type, env.Timestamp)
	}
	if !sameJSON(t, env.Data, created) {
		t.Errorf("client.created data %s, want the client resource POST returned %s", env.Data, created)
	}
	if ua := d.header.Get("User-Agent"); ua != "frontdesk-webhooks/"+buildinfo.Version() {
		t.Errorf("User-Agent %q, want frontdesk-webhooks/%s", ua, buildinfo.Version())
	}

	updated := call(http.MethodPatch, "/v3/clients/"+strconv.FormatInt(client.ID, 10), `{"city":"Santiago"}`)
	d = waitDeliveries(2)[1]
	json.Unmarshal(d.body, &env)
	if env.Type != "client.updated" || !sameJSON(t, env.Data, updated) {
		t.Errorf("second event %s with data %s, want client.updated with %s", env.Type, env.Data, updated)
	}
	if d.header.Get("webhook-id") == waitDeliveries(2)[0].header.Get("webhook-id") {
		t.Errorf("two events share webhook-id %s", d.header.Get("webhook-id"))
	}

	// The receiver has the event before the attempt is recorded; the metrics follow shortly.
	metricsBase := "http://" + srv.listening["metrics"]
	if res, err := http.Get(base + "/metrics"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics on the public listener: %v %v, want 404 (metrics live on --metrics-addr only)", res.StatusCode, err)
	}
	wants := []string{`frontdesk_build_info{goversion="` + buildinfo.Get().GoVersion + `",revision="` + buildinfo.Get().Revision + `",version="` + buildinfo.Version() + `"} 1`,
		`frontdesk_webhook_deliveries_total{outcome="succeeded"} 2`, "frontdesk_webhook_queue_depth 0", "frontdesk_webhook_oldest_due_seconds 0", "frontdesk_webhook_attempt_duration_seconds_count 2"}
	deadline := time.Now().Add(10 * time.Second)
	for {
		metrics := string(callPlain(t, metricsBase+"/metrics"))
		var missing []string
		for _, want := range wants {
			if !strings.Contains(metrics, want) {
				missing = append(missing, want)
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks %q", missing)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(bytes.TrimSpace(b), &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

func callPlain(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return raw
}
