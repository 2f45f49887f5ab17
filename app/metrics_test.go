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
