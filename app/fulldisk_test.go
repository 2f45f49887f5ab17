package app

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"frontdesk/db/dbtest"
)

// A full disk, on a real 8 MB file system (a tmpfs mounted for the test): writes through the
// API answer 507 insufficient_storage instead of 500, reads go on, /readyz and the
// frontdesk_storage_full metric say so, the admin shows a banner on every page and a clear
// page for a refused form, and once space returns the appliance notices by itself (no request
// needed) and writes work again.
func TestFullDisk(t *testing.T) {
	dir := dbtest.Tmpfs(t, "8m")
	if code, _, stderr := run(t, "", "migrate", "--data", dir); code != 0 {
		t.Fatalf("migrate: exit %d, %s", code, stderr)
	}
	code, key, stderr := run(t, "", "apikey", "create", "--data", dir, "--name", "disk", "--full-access")
	if code != 0 {
		t.Fatalf("apikey create: %d %s", code, stderr)
	}
	key = strings.TrimSpace(key)
	if code, stderr := ownerCmd(t, "correct horse battery staple\n", "create", "--data", dir, "--email", "owner@example.com"); code != 0 {
		t.Fatalf("owner create: %d %s", code, stderr)
	}

	srv := serveInProcess(t, dir, []string{"--addr", "127.0.0.1:0", "--rate-limit-per-minute", "0", "--metrics-addr", "127.0.0.1:0"})
	base := srv.URL
	call := func(method, path, body string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	metric := regexp.MustCompile(`(?m)^frontdesk_storage_full (\d)`)
	full := func() string {
		res, err := http.Get("http://" + srv.listening["metrics"] + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		body := string(raw)
		return metric.FindStringSubmatch(body)[1]
	}
	if st, body, _ := call("GET", "/readyz", ""); st != 200 || full() != "0" {
		t.Fatalf("before: readyz %d %q, metric %s", st, body, full())
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page := func(method, path string, form url.Values) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		res, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if st, body := page("POST", "/login", url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery staple"}}); st != http.StatusSeeOther {
		t.Fatalf("sign in: %d %.500s", st, body)
	}
	if _, body := page("GET", "/", nil); strings.Contains(body, "storage-banner") {
		t.Fatal("disk banner before the disk is full")
	}

	free := dbtest.Fill(t, dir)
	created, status, answer := 0, 0, ""
	var header http.Header
	for i := 0; i < 5000; i++ {
		body := fmt.Sprintf(`{"first_name":"Client %d","last_name":"%s"}`, i, strings.Repeat("x", 200))
		if status, answer, header = call("POST", "/v3/clients", body); status != http.StatusCreated {
			break
		}
		created++
	}
	if status != http.StatusInsufficientStorage || answer != `{"error":"insufficient_storage","detail":"disk_full"}`+"\n" {
		t.Fatalf("write on a full disk after %d clients: got %d %s, want 507 insufficient_storage", created, status, answer)
	}
	if header.Get("Retry-After") == "" {
		t.Error("507 without Retry-After")
	}
	if st, body, _ := call("GET", "/v3/clients?per_page=1", ""); st != 200 || !strings.Contains(body, fmt.Sprintf(`"total_records":%d`, created)) {
		t.Fatalf("read on a full disk: %d %.300s, want 200 with the %d clients", st, body, created)
	}
	if st, body, _ := call("GET", "/readyz", ""); st != http.StatusServiceUnavailable || !strings.Contains(body, "insufficient storage") {
		t.Fatalf("readyz on a full disk: %d %q, want 503 naming the disk", st, body)
	}
	if got := full(); got != "1" {
		t.Fatalf("frontdesk_storage_full = %s on a full disk, want 1", got)
	}
	for _, path := range []string{"/", "/clients"} {
		if st, body := page("GET", path, nil); st != http.StatusOK || !strings.Contains(body, `data-testid="storage-banner"`) ||
			!strings.Contains(body, "The server&#39;s disk is full.") {
			t.Fatalf("GET %s on a full disk: %d, want the page with the disk banner:\n%.3000s", path, st, body)
		}
	}
	st, body := page("POST", "/clients", url.Values{"first_name": {"Refused"}, "last_name": {"Client"}, "gender": {"0"}})
	if st != http.StatusInsufficientStorage || !strings.Contains(body, "so this was not saved") {
		t.Fatalf("admin form on a full disk: %d, want 507 with the message:\n%.3000s", st, body)
	}

	free()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, _, _ := call("GET", "/readyz", "")
		if st == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("readyz still not 200 20 s after space came back")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := full(); got != "0" {
		t.Fatalf("frontdesk_storage_full = %s after recovery, want 0", got)
	}
	if _, body := page("GET", "/", nil); strings.Contains(body, "storage-banner") {
		t.Fatal("disk banner after space came back")
	}
	if st, body, _ := call("POST", "/v3/clients", `{"first_name":"After","last_name":"Space"}`); st != http.StatusCreated {
		t.Fatalf("write after space came back: %d %s", st, body)
	}
	logs := srv.logs
	for _, want := range []string{"the disk is full", "disk space is back"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if n := strings.Count(logs.String(), `"level":"ERROR"`); n != 1 {
		t.Errorf("%d error lines, want exactly one (the disk is full):\n%s", n, logs.String())
	}
}
