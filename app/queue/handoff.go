package queue

import (
	"context"
	"sync"

	"frontdesk/db"
)

// Hand-off (docs/webhooks.md, "How a first attempt reaches the dispatcher"). A row written by
// the process whose dispatcher is running need not be claimed from SQLite by a later round: its
// writer inserts it already claimed (the lease a claim would set: due time NULL) and, once the
// transaction holding it has committed, hands the job to the dispatcher in memory. That saves a
// claim UPDATE of every new row on the one writer.
//
// What keeps it at-least-once and exactly-once-per-claim:
//   - The job reaches the loop only through db.Queries.AfterWrite, told committed: a write
//     rolled back, or a batch whose COMMIT failed, hands nothing off (and its row does not
//     exist).
//   - While the job is in memory its row is claimed, so no claim round takes it a second time.
//   - If the process dies before sending it, its row is claimed by nobody; the next start's
//     ReleaseAll makes it due, as it does for every claim a crash leaves behind.
//   - When the dispatcher stops, it closes the hand-off, waits for the writes that reserved a
//     place to settle (one empty write through the committer: their outcome is told before any
//     later write is answered), and hands every arrived job back with its lanes.
//
// Memory stays bounded as with claims: a target takes hand-offs only while its lane has room
// (the room the loop publishes, less the hand-offs reserved and not yet queued), so a hanging
// endpoint's new rows stay in SQLite, due, for ordinary claim rounds.
type handoff[P any] struct {
	mu      sync.Mutex
	open    bool
	room    map[int64]int // free room of each open target's lane, as the loop last saw it
	pending map[int64]int // reserved or arrived, not yet in a lane
	arrived []Job[P]
	ready   chan struct{} // something arrived
}

func newHandoff[P any]() *handoff[P] {
	return &handoff[P]{room: map[int64]int{}, pending: map[int64]int{}, ready: make(chan struct{}, 1)}
}

// Reserve is for a sender's Enqueue, inside q's write transaction, about to insert a new row's
// first attempt for target: it reports whether the row may be inserted already claimed and
// handed off. On true the caller inserts the row claimed and must call the returned function
// with the job (ID 0 if the insert failed) before fn returns; the job reaches the dispatcher only
// if the write commits. On false it inserts the row due, as usual.
func (d *Dispatcher[P, T, R]) Reserve(q *db.Queries, target int64) (handOff func(Job[P]), ok bool) {
	h := d.handoff
	if q.Writer() != d.db {
		return nil, false // another database, or not a write of the committer
	}
	h.mu.Lock()
	if !h.open || h.room[target]-h.pending[target] <= 0 {
		h.mu.Unlock()
		return nil, false
	}
	h.pending[target]++
	h.mu.Unlock()
	var job Job[P]
	if !q.AfterWrite(func(committed bool) { h.settle(target, job, committed) }) {
		h.settle(target, Job[P]{}, false) // cannot happen after Writer; never leak the place
		return nil, false
	}
	return func(j Job[P]) { job = j }, true
}

// settle is told the outcome of a write that reserved a place for target.
func (h *handoff[P]) settle(target int64, j Job[P], committed bool) {
	h.mu.Lock()
	if !committed || j.ID == 0 {
		h.pending[target]--
		h.mu.Unlock()
		return
	}
	h.arrived = append(h.arrived, j)
	h.mu.Unlock()
	select {
	case h.ready <- struct{}{}:
	default:
	}
}

// takeArrived returns the jobs handed off since the last call; they leave pending as the loop
// queues them.
func (h *handoff[P]) takeArrived() []Job[P] {
	h.mu.Lock()
	defer h.mu.Unlock()
	jobs := h.arrived
	h.arrived = nil
	for _, j := range jobs {
		h.pending[j.Target]--
	}
	return jobs
}

// publish sets each open target's free room; targets not in room take no hand-offs.
func (h *handoff[P]) publish(room map[int64]int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.open = true
	clear(h.room)
	for id, n := range room {
		h.room[id] = n
	}
}

// close stops reservations, waits until every write that reserved a place has been told its
// outcome, and returns what arrived.
func (h *handoff[P]) close(d *db.DB) []Job[P] {
	h.mu.Lock()
	h.open = false
	h.mu.Unlock()
	// A write that reserved did so inside the committer, before the close; its outcome is told
	// before this empty write (a later batch) is answered. If the database is closing, the
	// committer finishes its queue first, so the same holds.
	_ = d.InTxQuiet(context.Background(), func(*db.Queries) error { return nil })
	return h.takeArrived()
}
