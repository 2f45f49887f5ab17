package mailer_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"frontdesk/app/messages"
	"frontdesk/db"
)

// While other writes keep the one writer busy, a new booking's confirmation reaches the
// dispatcher without a claim: its row is written already claimed and handed over in memory once
// the booking commits, so the message never waits for a claim round's transaction to queue
// behind those writes, and the writer never writes its row a second time: whatever claim
// rounds run meanwhile (the poll timer fires on its own clock) claim nothing.
func TestConfirmationIsHandedOffWhileWritesContinue(t *testing.T) {
	e := newEnv(t, envOptions{handoff: true})
	ctx := context.Background()
	// Let the dispatcher's first rounds (the start's look for retries) pass.
	eventually(t, "the dispatcher's first claim round", func() bool { return e.s.ClaimRounds() > 0 })

	// Writes that continue throughout: each a transaction through the committer, as the API's
	// are, and quiet, so the rounds counted are the ones the booking causes.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for n := int64(1); ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			err := e.db.InTxQuiet(ctx, func(q *db.Queries) error { return q.TouchStorageProbe(ctx, n) })
			if err != nil {
				t.Errorf("background write: %v", err)
				return
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()

	v := e.book("María", time.Date(2026, 11, 30, 15, 30, 0, 0, santiago))
	eventually(t, "the confirmation recorded as sent", func() bool {
		for _, x := range e.entries(v.Booking.ID) {
			if x.Kind == messages.Confirmation && x.State == messages.StateSent {
				return true
			}
		}
		return false
	})
	if got := len(e.received("Booking confirmed")); got != 1 {
		t.Fatalf("the mail server got %d confirmations, want 1", got)
	}
	if n := e.s.Claimed(); n != 0 {
		t.Errorf("claim rounds claimed %d messages, want 0: the confirmation is handed off, not claimed", n)
	}
}
