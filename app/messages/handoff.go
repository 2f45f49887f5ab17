package messages

import (
	"time"

	"frontdesk/app/queue"
	"frontdesk/db"
)

// Handoff is how a change gives a message due now to the dispatcher running in this process on
// the same database, in memory, once its write has committed, instead of leaving it for a
// claim round (app/queue/handoff.go): the row is inserted already claimed, so the writer never
// writes it a second time to claim it, and the message does not wait for a round's transaction
// to queue behind the bookings committing beside it. The process's wiring makes one per
// database (NewHandoff) and gives it to the mailer, whose dispatcher serves it while it runs.
// Reminders, and anything due later, are claimed when due.
type Handoff = queue.HandoffPoint[Reserver]

// Reserver is the running dispatcher's side of a hand-off: for a message going by channel, it
// reports whether one may be inserted claimed and handed off; on true the caller inserts it
// and must call handOff with its id (0 if the insert failed) and its due time.
type Reserver interface {
	Reserve(q *db.Queries, channel string) (handOff func(id int64, due time.Time), ok bool)
}

// handoffKey names the messages outbox's hand-off on a database (db.DB.SetHandoff).
type handoffKey struct{}

// NewHandoff makes the hand-off of d's customer messages: from now on a change writing to d
// finds through it the dispatcher serving it.
func NewHandoff(d *db.DB) *Handoff { return queue.NewHandoffPoint[Reserver](d, handoffKey{}) }

// runningOn is the dispatcher serving the hand-off of the database q writes to, nil if none.
func runningOn(q *db.Queries) Reserver {
	r, _ := queue.RunningOn[Reserver](q, handoffKey{})
	return r
}
