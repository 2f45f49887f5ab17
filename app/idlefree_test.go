package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"frontdesk/db"
)

// TestIdleFreeOnceAfterLoad: memory is given back once, in the first quiet window after a busy
// one — not while requests keep coming, not while one is still running, not again while idle,
// and not for a trickle of health checks. Windows are ended by hand, as the ticker ends them.
func TestIdleFreeOnceAfterLoad(t *testing.T) {
	frees := 0
	f := &idleFree{free: func() { frees++ }}
	release, entered := make(chan struct{}), make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	srv := httptest.NewServer(f.wrap(mux))
	defer srv.Close()
	var unblock sync.Once
	defer unblock.Do(func() { close(release) }) // before Close, which waits for /slow
	get := func(path string, n int) {
		t.Helper()
		for range n {
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
	}
	window := func(want int, what string) {
		t.Helper()
		f.windowEnded()
		if frees != want {
			t.Fatalf("%s: freed %d times, want %d", what, frees, want)
		}
	}

	window(0, "idle since start")
	get("/healthz", quietRequests)
	window(0, "a trickle of health checks")
	window(0, "quiet after a trickle")
	get("/healthz", quietRequests+1)
	window(0, "a busy window")
	get("/healthz", quietRequests+1)
	window(0, "requests still coming")

	// One request still running at the end of an otherwise quiet window: not yet.
	slow := make(chan error, 1)
	go func() {
		resp, err := http.Get(srv.URL + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		slow <- err
	}()
	<-entered
	window(0, "a request still running")
	unblock.Do(func() { close(release) })
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
	window(1, "the first quiet window")
	window(1, "still idle")
	get("/healthz", 3)
	window(1, "a trickle after the free")
	window(1, "quiet after that trickle")

	get("/healthz", quietRequests+1)
	window(1, "the next busy window")
	window(2, "quiet after it")
}

// TestIdleFreeForgetsKeptValues: serve's free drops the values kept under change counters, so
// the schedules and busy times a load over many providers kept go back with the heap.
func TestIdleFreeForgetsKeptValues(t *testing.T) {
	d, err := db.Open(context.Background(), db.Path(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.Counted().Store("schedule", 1, "kept")
	if _, ok := d.Counted().Lookup("schedule", 1); !ok {
		t.Fatal("the value was not kept")
	}
	newIdleFree(d.ForgetKept).free()
	if _, ok := d.Counted().Lookup("schedule", 1); ok {
		t.Fatal("the value is still kept after a free")
	}
}
