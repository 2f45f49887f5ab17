package app

import (
	"context"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// idleFree gives memory back to the system once a spell of requests is over (README
// "Performance"). Under load the Go runtime grows its heap goal and keeps the pages it freed for
// the next burst; its background scavenger hands them back only slowly, so an appliance that
// served a busy minute would hold tens of MiB it no longer uses for a long while. So serve
// watches its requests: after a busy window (more than quietRequests started), the first quiet
// window (at most quietRequests started, none still running) runs free — what the appliance
// keeps to answer a burst faster dropped (the values kept under change counters and the
// catalog version, db.ForgetKept: a load over thousands of providers fills them with schedules
// and busy times no idle appliance needs; and the answers the API and the booking site keep,
// up to 8 MiB each, which a long spell of varied reads fills), a full collection that returns every free
// page at once, and the release of the executable's pages (giveBack) — and free runs again only
// after the next busy window. Start-up is a busy spell of its own: serve
// gives back once the read pool is open. Nothing is freed while requests keep coming, so throughput under load is
// untouched; a trickle of health checks neither arms it nor keeps it from running.
type idleFree struct {
	every  time.Duration // the window
	free   func()
	forget []func() // what serve's free drops before the collection

	started atomic.Int64 // requests started, ever
	running atomic.Int64 // requests not finished yet

	seen  int64 // started at the last window's end
	armed bool  // a busy window came since the last free
}

const (
	idleFreeWindow = 5 * time.Second
	// quietRequests is the most requests a window may start and still be quiet: a load
	// balancer's health checks and a polling integration stay below it.
	quietRequests = 10
)

// newIdleFree returns serve's watcher, whose free calls forget and gives memory back.
func newIdleFree(forget ...func()) *idleFree {
	f := &idleFree{every: idleFreeWindow, forget: forget}
	f.free = func() {
		for _, drop := range f.forget {
			drop()
		}
		giveBack()
	}
	return f
}

// alsoForget adds to what free drops; serve calls it while it is built, before Run.
func (f *idleFree) alsoForget(drop ...func()) { f.forget = append(f.forget, drop...) }

// giveBack returns every free page of the heap to the system (a full collection) and unmaps the
// executable's pages that start-up or the busy spell touched (codepages_linux.go). A release
// that fails leaves those pages mapped, which costs memory and nothing else.
func giveBack() {
	debug.FreeOSMemory()
	releaseCodePages()
}

// wrap counts next's requests.
func (f *idleFree) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.started.Add(1)
		f.running.Add(1)
		defer f.running.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// Run ends each window until ctx is done.
func (f *idleFree) Run(ctx context.Context) error {
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			f.windowEnded()
		}
	}
}

// windowEnded arms the watcher after a busy window and frees after a quiet one, once.
func (f *idleFree) windowEnded() {
	n := f.started.Load()
	started := n - f.seen
	f.seen = n
	switch {
	case started > quietRequests:
		f.armed = true
	case f.armed && f.running.Load() == 0:
		f.armed = false
		f.free()
	}
}
