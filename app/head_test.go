package app

import (
	"io"
	"net/http"
	"testing"
)

// Every surface answers HEAD where it answers GET, with GET's status and headers and no body:
// uptime monitors commonly check /healthz or a page with HEAD, and a 405 reads as "down".
func TestHeadAnsweredLikeGetOnEverySurface(t *testing.T) {
	srv := serveInProcess(t, newDataDir(t), []string{"--addr", "127.0.0.1:0"})
	for _, path := range []string{"/healthz", "/readyz", "/login", "/book", "/v3/services", "/static/app.css"} {
		get := request(t, http.MethodGet, srv.URL+path)
		head := request(t, http.MethodHead, srv.URL+path)
		if get.status == http.StatusMethodNotAllowed || head.status != get.status {
			t.Errorf("%s: HEAD %d, GET %d; want the same, not 405", path, head.status, get.status)
		}
		if head.contentType != get.contentType {
			t.Errorf("%s: HEAD Content-Type %q, GET %q", path, head.contentType, get.contentType)
		}
		if head.body != "" {
			t.Errorf("%s: HEAD sent a body of %d bytes", path, len(head.body))
		}
	}
	// A path without GET is still refused for HEAD.
	if got := request(t, http.MethodHead, srv.URL+"/logout"); got.status != http.StatusMethodNotAllowed {
		t.Errorf("HEAD /logout (POST only): %d, want 405", got.status)
	}
}

type answer struct {
	status            int
	contentType, body string
}

func request(t *testing.T, method, url string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: string(body)}
}
