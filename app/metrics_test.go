package app

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Request methods become metric labels only from a fixed set: a client inventing methods must
// not add a series per invention to /metrics (memory kept for the life of the process).
func TestMetricsMethodLabelBounded(t *testing.T) {
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"})
	for _, method := range []string{"FOO1", "FOO2", "GET"} {
		req, err := http.NewRequest(method, srv.URL+"/v3/clients", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	res, err := http.Get("http://" + srv.listening["metrics"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	text := string(raw)
	if strings.Contains(text, `method="FOO1"`) || strings.Contains(text, `method="FOO2"`) {
		t.Errorf("invented methods became labels:\n%s", grepLines(text, "frontdesk_http_request_duration_seconds_count"))
	}
	for _, want := range []string{`method="other",route="unmatched",status="4xx"} 2`, `method="GET",route="/v3/clients",status="4xx"} 1`} {
		if !strings.Contains(text, "frontdesk_http_request_duration_seconds_count{"+want) {
			t.Errorf("no series %s in:\n%s", want, grepLines(text, "frontdesk_http_request_duration_seconds_count"))
		}
	}
}

func grepLines(text, prefix string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// The profiler is for the operator: it answers on the --metrics-addr listener and nowhere on
// the public one, and it leaves out the command line, which may carry a secret.
func TestProfilingOnlyOnOperatorListener(t *testing.T) {
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"})
	ops := "http://" + srv.listening["metrics"]
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(raw)
	}
	if code, body := get(ops + "/debug/pprof/"); code != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Errorf("operator /debug/pprof/ = %d, want 200 with the profile index:\n%.300s", code, body)
	}
	if code, body := get(ops + "/debug/pprof/heap?debug=1"); code != http.StatusOK || !strings.Contains(body, "heap profile") {
		t.Errorf("operator heap profile = %d:\n%.300s", code, body)
	}
	if code, _ := get(ops + "/debug/pprof/profile?seconds=1"); code != http.StatusOK {
		t.Errorf("operator CPU profile = %d, want 200", code)
	}
	if code, _ := get(ops + "/debug/pprof/cmdline"); code == http.StatusOK {
		t.Error("the command line is served; it may hold a secret")
	}
	if code, _ := get(ops + "/metrics"); code != http.StatusOK {
		t.Errorf("operator /metrics = %d", code)
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/heap", "/metrics"} {
		if code, _ := get(srv.URL + path); code == http.StatusOK {
			t.Errorf("public listener serves %s", path)
		}
	}
}
