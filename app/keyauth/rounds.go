package keyauth

import (
	"context"
	"sync"
	"sync/atomic"

	"frontdesk/db"
)

// versionRounds reads the authentication counters (db AuthenticationVersions) for many
// requests at once. Every request needs a reading taken after it arrived — that is what makes
// a revocation count from the very next request — but not one of its own: requests that
// arrive while a read is running join the next round, and one statement answers the whole
// round. Under load a statement serves many requests instead of one; alone, a request runs its
// own, as before. No reading is ever reused: each round's statement starts after every request
// in it arrived, and a round takes no more requests once its statement has started.
//
// While nothing commits to the database, not even a round is needed: the leader notes the
// database's commit stamp (db.DB.Stamp) before its statement, and a request that finds the
// stamp unchanged takes that round's reading — nothing has committed since it was taken.
type versionRounds struct {
	mu    sync.Mutex
	next  *versionRound // gathering requests; nil when none waits
	run   sync.Mutex    // one round's statement at a time
	stamp func() (db.Stamp, bool)
	last  atomic.Pointer[stampedReading] // the latest round's reading, if it had a stamp
}

type stampedReading struct {
	stamp db.Stamp // read before the statement
	v     db.AuthenticationVersionsRow
}

type versionRound struct {
	done chan struct{}
	v    db.AuthenticationVersionsRow
	err  error
}

// read returns a reading of the counters taken after read was called.
func (r *versionRounds) read(ctx context.Context, q *db.Queries) (db.AuthenticationVersionsRow, error) {
	if s, ok := r.stamp(); ok {
		if last := r.last.Load(); last != nil && last.stamp == s {
			return last.v, nil
		}
	}
	r.mu.Lock()
	round, lead := r.next, false
	if round == nil {
		round, lead = &versionRound{done: make(chan struct{})}, true
		r.next = round
	}
	r.mu.Unlock()
	if !lead {
		<-round.done
		return round.v, round.err
	}
	// The leader waits for the running round, gathering requests meanwhile, then closes its
	// round to newcomers before the statement starts.
	r.run.Lock()
	r.mu.Lock()
	r.next = nil
	r.mu.Unlock()
	// The reading is the whole round's, so the leader's going away must not cancel it.
	s, stamped := r.stamp()
	round.v, round.err = q.AuthenticationVersions(context.WithoutCancel(ctx))
	if stamped && round.err == nil {
		r.last.Store(&stampedReading{s, round.v})
	}
	r.run.Unlock()
	close(round.done)
	return round.v, round.err
}
