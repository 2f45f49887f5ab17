package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/apikey"
)

func TestIdempotentCreateReplays(t *testing.T) {
	f := newFixture(t)
	body := `{"first_name":"Ida","email":"ida@example.com"}`
	clients, events := f.count("clients"), f.count("events")
	first, firstRaw := f.call("POST", "/v3/clients", body, "Idempotency-Key", "create-ida-1")
	wantStatus(t, first, firstRaw, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("first response marked as replayed")
	}
	f.now = f.now.Add(time.Hour)
	for i := 0; i < 3; i++ {
		again, raw := f.call("POST", "/v3/clients", body, "Idempotency-Key", "create-ida-1")
		wantStatus(t, again, raw, http.StatusCreated)
		if string(raw) != string(firstRaw) {
			t.Fatalf("replay %d: got %s, want %s", i, raw, firstRaw)
		}
		if again.Header.Get("Idempotent-Replayed") != "true" || !strings.HasPrefix(again.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("replay %d: got headers %v, want Idempotent-Replayed: true and JSON", i, again.Header)
		}
		validateResponse(t, "createClient", again, raw)
	}
	if got := f.count("clients"); got != clients+1 {
		t.Fatalf("got %d clients, want %d", got, clients+1)
	}
	if got := f.count("events"); got != events+1 {
		t.Fatalf("got %d events, want %d", got, events+1)
	}
	// Without a key, the same body creates again; another key is another request.
	resp, raw := f.call("POST", "/v3/clients", body)
	wantStatus(t, resp, raw, http.StatusCreated)
	resp, raw = f.call("POST", "/v3/clients", body, "Idempotency-Key", "create-ida-2")
	wantStatus(t, resp, raw, http.StatusCreated)
	// Keys belong to an API key: another key's "create-ida-1" is a different request.
	resp, raw = f.callWithKey(f.newKey(apikey.FullAccess), "POST", "/v3/clients", body, "Idempotency-Key", "create-ida-1")
	wantStatus(t, resp, raw, http.StatusCreated)
	if resp.Header.Get("Idempotent-Replayed") != "" || f.count("clients") != clients+4 {
		t.Fatalf("another API key's request was replayed (%d clients, want %d)", f.count("clients"), clients+4)
	}
}

func TestIdempotencyKeyMisuse(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"B"}`, "Idempotency-Key", "k1")
	wantStatus(t, resp, raw, http.StatusCreated)
	clients := f.count("clients")
	cases := []struct {
		name, method, path, body string
	}{
		{"different body", "POST", "/v3/clients", `{"first_name":"A","last_name":"C"}`},
		{"same body reformatted", "POST", "/v3/clients", `{"first_name": "A", "last_name": "B"}`},
		{"different path", "PATCH", "/v3/bookings/1/cancel", `{"first_name":"A","last_name":"B"}`},
		{"different query", "POST", "/v3/clients?x=1", `{"first_name":"A","last_name":"B"}`},
	}
	for _, c := range cases {
		resp, raw := f.call(c.method, c.path, c.body, "Idempotency-Key", "k1")
		wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "idempotency_key_reused")
		validateResponse(t, "createClient", resp, raw)
	}
	if f.count("clients") != clients {
		t.Fatalf("a reused key created a client")
	}
	for _, key := range []string{"", strings.Repeat("k", 256), "ключ", "a\tb"} {
		resp, raw := f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"B"}`, "Idempotency-Key", key)
		wantError(t, resp, raw, http.StatusBadRequest, "bad_request", "invalid_idempotency_key")
	}
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"B"}`, "Idempotency-Key", strings.Repeat("~", 255))
	wantStatus(t, resp, raw, http.StatusCreated)
	if f.count("clients") != clients+1 {
		t.Fatalf("got %d clients, want %d", f.count("clients"), clients+1)
	}
}

func TestIdempotencyStoresRefusals(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"A"}`, "Idempotency-Key", "bad-1")
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "last_name: at least one of last_name, email or phone is required")
	resp, again := f.call("POST", "/v3/clients", `{"first_name":"A"}`, "Idempotency-Key", "bad-1")
	wantStatus(t, resp, again, http.StatusUnprocessableEntity)
	if string(again) != string(raw) || resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("got %s (replayed %q), want the stored %s", again, resp.Header.Get("Idempotent-Replayed"), raw)
	}
	// A body over the limit never reaches the handler, so it claims nothing.
	big := `{"first_name":"` + strings.Repeat("x", 2<<20) + `"}`
	resp, raw = f.call("POST", "/v3/clients", big, "Idempotency-Key", "big-1")
	wantError(t, resp, raw, http.StatusRequestEntityTooLarge, "payload_too_large", "*")
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"B"}`, "Idempotency-Key", "big-1")
	wantStatus(t, resp, raw, http.StatusCreated)
}

func TestIdempotencyKeysExpire(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"B"}`, "Idempotency-Key", "day-1")
	wantStatus(t, resp, raw, http.StatusCreated)
	f.now = f.now.Add(24*time.Hour - time.Millisecond)
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"C"}`, "Idempotency-Key", "day-1")
	wantError(t, resp, raw, http.StatusUnprocessableEntity, "unprocessable_entity", "idempotency_key_reused")
	f.now = f.now.Add(time.Millisecond)
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"C"}`, "Idempotency-Key", "day-1")
	wantStatus(t, resp, raw, http.StatusCreated)
	if resp.Header.Get("Idempotent-Replayed") != "" {
		t.Fatal("an expired key was replayed")
	}
	f.now = f.now.Add(25 * time.Hour)
	resp, raw = f.call("POST", "/v3/clients", `{"first_name":"A","last_name":"D"}`, "Idempotency-Key", "other")
	wantStatus(t, resp, raw, http.StatusCreated)
	if n := f.count("idempotency_keys"); n != 1 {
		t.Fatalf("got %d stored keys, want expired ones cleaned up and 1 left", n)
	}
}

// idempotentRequest runs handler h behind a.idempotent as an authenticated request would.
func idempotentRequest(a *API, h http.HandlerFunc, key, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/v3/things", strings.NewReader(body))
	r.Header.Set("Idempotency-Key", key)
	r = r.WithContext(context.WithValue(r.Context(), keyCtx, authKey{ID: 1}))
	w := httptest.NewRecorder()
	a.idempotent(h)(w, r)
	return w
}

func TestIdempotencyReleasesServerErrors(t *testing.T) {
	f := newFixture(t)
	var runs atomic.Int32
	h := func(w http.ResponseWriter, r *http.Request) {
		if runs.Add(1) == 1 {
			f.api.writeError(w, r, context.DeadlineExceeded) // any unexpected error: a 500
			return
		}
		writeJSON(w, http.StatusCreated, map[string]int{"n": int(runs.Load())})
	}
	if w := idempotentRequest(f.api, h, "retry-me", `{}`); w.Code != http.StatusInternalServerError {
		t.Fatalf("first attempt: got %d, want 500", w.Code)
	}
	if w := idempotentRequest(f.api, h, "retry-me", `{}`); w.Code != http.StatusCreated || w.Header().Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry after a 500: got %d (replayed %q), want a fresh 201", w.Code, w.Header().Get("Idempotent-Replayed"))
	}
	w := idempotentRequest(f.api, h, "retry-me", `{}`)
	if w.Code != http.StatusCreated || w.Header().Get("Idempotent-Replayed") != "true" || w.Body.String() != "{\"n\":2}\n" {
		t.Fatalf("third attempt: got %d %q (replayed %q), want the stored 201 {\"n\":2}", w.Code, w.Body, w.Header().Get("Idempotent-Replayed"))
	}
	if runs.Load() != 2 {
		t.Fatalf("handler ran %d times, want 2", runs.Load())
	}
	// A handler that panics frees its key too.
	boom := func(w http.ResponseWriter, r *http.Request) { panic("boom") }
	func() {
		defer func() { recover() }()
		idempotentRequest(f.api, boom, "panics", `{}`)
	}()
	if w := idempotentRequest(f.api, h, "panics", `{}`); w.Code != http.StatusCreated {
		t.Fatalf("after a panic: got %d, want 201", w.Code)
	}
}

func TestIdempotencyConcurrentSameKey(t *testing.T) {
	f := newFixture(t)
	var runs atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		close(entered)
		<-release
		writeJSON(w, http.StatusCreated, map[string]string{"ok": "yes"})
	}
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- idempotentRequest(f.api, slow, "same", `{"a":1}`) }()
	<-entered
	w := idempotentRequest(f.api, slow, "same", `{"a":1}`)
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"idempotency_key_in_progress"`) {
		t.Fatalf("second request while the first runs: got %d %s, want 409 idempotency_key_in_progress", w.Code, w.Body)
	}
	w = idempotentRequest(f.api, slow, "same", `{"a":2}`)
	if w.Code != http.StatusUnprocessableEntity {
		t.Fatalf("different body while the first runs: got %d %s, want 422", w.Code, w.Body)
	}
	close(release)
	if first := <-done; first.Code != http.StatusCreated {
		t.Fatalf("first request: got %d, want 201", first.Code)
	}
	if w := idempotentRequest(f.api, slow, "same", `{"a":1}`); w.Code != http.StatusCreated || w.Header().Get("Idempotent-Replayed") != "true" {
		t.Fatalf("after the first finished: got %d (replayed %q), want the stored 201", w.Code, w.Header().Get("Idempotent-Replayed"))
	}
	if runs.Load() != 1 {
		t.Fatalf("handler ran %d times, want once", runs.Load())
	}
}

// TestIdempotencyConcurrentCreates fires one create many times at once over HTTP: exactly one
// client is created; every other answer is a replay of it or a 409.
func TestIdempotencyConcurrentCreates(t *testing.T) {
	f := newFixture(t)
	clients := f.count("clients")
	const n = 16
	var wg sync.WaitGroup
	statuses := make([]int, n)
	bodies := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, raw := f.call("POST", "/v3/clients", `{"first_name":"Cy","phone":"+56900000001"}`, "Idempotency-Key", "burst")
			statuses[i], bodies[i] = resp.StatusCode, string(raw)
		}()
	}
	wg.Wait()
	if got := f.count("clients"); got != clients+1 {
		t.Fatalf("got %d clients, want %d", got, clients+1)
	}
	var created string
	for i, s := range statuses {
		switch s {
		case http.StatusCreated:
			if created != "" && bodies[i] != created {
				t.Fatalf("two different 201 bodies: %s and %s", created, bodies[i])
			}
			created = bodies[i]
		case http.StatusConflict:
		default:
			t.Fatalf("request %d: got %d %s, want 201 or 409", i, s, bodies[i])
		}
	}
	var c struct{ ID int64 }
	if err := json.Unmarshal([]byte(created), &c); err != nil || c.ID == 0 {
		t.Fatalf("no successful create among %v", statuses)
	}
}
