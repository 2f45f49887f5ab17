package dispatch

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/nettest"
)

// countingServer is a receiver on 127.0.0.1 that counts the requests it got.
func countingServer(t *testing.T, tls bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewUnstartedServer(h)
	if tls {
		// The TLS tests use clients that reject the test certificate; keep
		// the server's handshake complaints out of the test output.
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &hits
}

// post sends a webhook-shaped request and drains the response, as the
// dispatcher will.
func post(t *testing.T, c *http.Client, url string) (*http.Response, error) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(`{"type":"webhook.test"}`))
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

func TestClientGuardsLoopbackTarget(t *testing.T) {
	srv, hits := countingServer(t, false)

	_, err := post(t, NewHTTPClient(5*time.Second, false, 4), srv.URL)
	if got := Categorize(err); got != CategoryForbiddenAddress {
		t.Fatalf("guarded POST to %s: err %v, category %q; want %q", srv.URL, err, got, CategoryForbiddenAddress)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("receiver got %d requests from the guarded client, want 0", n)
	}

	resp, err := post(t, NewHTTPClient(5*time.Second, true, 4), srv.URL)
	if err != nil {
		t.Fatalf("POST with allowPrivate: %v", err)
	}
	if resp.StatusCode != http.StatusNoContent || hits.Load() != 1 {
		t.Errorf("POST with allowPrivate: status %d, %d requests received; want 204 and 1", resp.StatusCode, hits.Load())
	}
}

// The check must apply to the address a name resolves to at dial time, not
// to the name in the URL.
func TestClientGuardsResolvedAddress(t *testing.T) {
	srv, hits := countingServer(t, false)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	rebinding := newFakeResolver(t, map[string]netip.Addr{"hooks.example.com": netip.MustParseAddr("127.0.0.1")})

	tests := []struct {
		name         string
		client       *http.Client
		url          string
		wantRefused  bool
		wantHitsLeft int32
	}{
		{name: "public-looking name resolving to loopback", client: newHTTPClient(5*time.Second, false, 4, rebinding),
			url: "http://hooks.example.com:" + port + "/", wantRefused: true},
		{name: "localhost via the system resolver", client: NewHTTPClient(5*time.Second, false, 4),
			url: "http://localhost:" + port + "/", wantRefused: true},
		{name: "same name with allowPrivate", client: newHTTPClient(5*time.Second, true, 4, rebinding),
			url: "http://hooks.example.com:" + port + "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := hits.Load()
			_, err := post(t, tt.client, tt.url)
			if tt.wantRefused {
				if got := Categorize(err); got != CategoryForbiddenAddress {
					t.Errorf("POST %s: err %v, category %q; want %q", tt.url, err, got, CategoryForbiddenAddress)
				}
				if n := hits.Load() - before; n != 0 {
					t.Errorf("receiver got %d requests, want 0", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("POST %s: %v", tt.url, err)
			}
			if n := hits.Load() - before; n != 1 {
				t.Errorf("receiver got %d requests, want 1", n)
			}
		})
	}
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	target, hits := countingServer(t, false)
	redirector := httptest.NewServer(http.RedirectHandler(target.URL+"/elsewhere", http.StatusFound))
	t.Cleanup(redirector.Close)

	resp, err := post(t, NewHTTPClient(5*time.Second, true, 4), redirector.URL)
	if err != nil {
		t.Fatalf("POST to redirector: %v", err)
	}
	if resp.StatusCode != http.StatusFound {
		t.Errorf("status %d, want the redirect itself (302)", resp.StatusCode)
	}
	if loc := resp.Header.Get("Location"); loc != target.URL+"/elsewhere" {
		t.Errorf("Location %q, want %q", loc, target.URL+"/elsewhere")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("redirect target got %d requests, want 0", n)
	}
}

func TestClientTransportSettings(t *testing.T) {
	tests := []struct {
		name        string
		timeout     time.Duration
		perHost     int
		wantTimeout time.Duration
		wantIdle    int
	}{
		{name: "as given", timeout: 3 * time.Second, perHost: 16, wantTimeout: 3 * time.Second, wantIdle: 16},
		{name: "defaults for nonsense", timeout: 0, perHost: 0, wantTimeout: DefaultTimeout, wantIdle: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewHTTPClient(tt.timeout, false, tt.perHost)
			tr, ok := c.Transport.(*http.Transport)
			if !ok {
				t.Fatalf("Transport is %T, want *http.Transport", c.Transport)
			}
			if c.Timeout != tt.wantTimeout {
				t.Errorf("Timeout = %v, want %v", c.Timeout, tt.wantTimeout)
			}
			if tr.MaxIdleConnsPerHost != tt.wantIdle {
				t.Errorf("MaxIdleConnsPerHost = %d, want %d", tr.MaxIdleConnsPerHost, tt.wantIdle)
			}
			if tr.Protocols == nil || tr.Protocols.HTTP2() || !tr.Protocols.HTTP1() {
				t.Errorf("Protocols = %v, want HTTP/1.1 only", tr.Protocols)
			}
			if tr.Proxy != nil {
				t.Errorf("Proxy is set, want none (a proxy would bypass the dial guard)")
			}
		})
	}
}

func TestCategorize(t *testing.T) {
	guarded := NewHTTPClient(5*time.Second, false, 4)
	open := NewHTTPClient(5*time.Second, true, 4)

	loopback, _ := countingServer(t, false)

	closedPort := "http://" + nettest.RefusedAddr(t) + "/"

	release := make(chan struct{})
	blocking := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(blocking.Close)
	t.Cleanup(func() { close(release) }) // runs first, so Close does not wait on the handler

	tlsServer, _ := countingServer(t, true)

	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(hangUp.Close)

	noSuchHost := newFakeResolver(t, nil)

	tests := []struct {
		name   string
		client *http.Client
		url    string
		want   string
	}{
		{name: "dns", client: newHTTPClient(5*time.Second, true, 4, noSuchHost), url: "http://nowhere.invalid/", want: CategoryDNS},
		{name: "connect", client: open, url: closedPort, want: CategoryConnect},
		{name: "timeout", client: NewHTTPClient(100*time.Millisecond, true, 4), url: blocking.URL, want: CategoryTimeout},
		{name: "tls", client: open, url: tlsServer.URL, want: CategoryTLS},
		{name: "tls client to plain server", client: open, url: strings.Replace(loopback.URL, "http:", "https:", 1), want: CategoryTLS},
		{name: "forbidden address", client: guarded, url: loopback.URL, want: CategoryForbiddenAddress},
		{name: "connection closed without response", client: open, url: hangUp.URL, want: CategoryOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := post(t, tt.client, tt.url)
			if err == nil {
				t.Fatalf("POST %s succeeded, want an error of category %q", tt.url, tt.want)
			}
			if got := Categorize(err); got != tt.want {
				t.Errorf("Categorize(%v) = %q, want %q", err, got, tt.want)
			}
			if got := Categorize(fmt.Errorf("deliver evt_1: %w", err)); got != tt.want {
				t.Errorf("Categorize(wrapped) = %q, want %q", got, tt.want)
			}
		})
	}

	if got := Categorize(nil); got != "" {
		t.Errorf("Categorize(nil) = %q, want empty", got)
	}
	if got := Categorize(io.ErrUnexpectedEOF); got != CategoryOther {
		t.Errorf("Categorize(io.ErrUnexpectedEOF) = %q, want %q", got, CategoryOther)
	}
}
