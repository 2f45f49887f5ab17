package queue

import (
	"sync/atomic"

	"frontdesk/db"
)

// HandoffPoint is where a writer finds the dispatcher running in this process on the same
// database, to hand it new rows in memory (handoff.go): the process's wiring makes one per
// outbox and database (NewHandoffPoint) and gives it to the dispatcher, which serves it while it
// runs. R is the dispatcher's side as the writer sees it (its Reserve method). key names the
// outbox on the database (db.DB.SetHandoff): one comparable value per outbox.
type HandoffPoint[R any] struct{ serving atomic.Pointer[serving[R]] }

type serving[R any] struct{ r R }

// NewHandoffPoint makes the hand-off point of d's outbox named key: from now on a change
// writing to d finds through it the dispatcher serving it.
func NewHandoffPoint[R any](d *db.DB, key any) *HandoffPoint[R] {
	h := &HandoffPoint[R]{}
	d.SetHandoff(key, h)
	return h
}

// Serve makes r the dispatcher new rows are handed to, until stop is called.
func (h *HandoffPoint[R]) Serve(r R) (stop func()) {
	s := &serving[R]{r}
	h.serving.Store(s)
	return func() { h.serving.CompareAndSwap(s, nil) }
}

// RunningOn is the dispatcher serving the hand-off point named key of the database q writes
// to; false if none is running.
func RunningOn[R any](q *db.Queries, key any) (R, bool) {
	var none R
	h, _ := q.Handoff(key).(*HandoffPoint[R])
	if h == nil {
		return none, false
	}
	if s := h.serving.Load(); s != nil {
		return s.r, true
	}
	return none, false
}
