package activity

import (
	"context"
	"fmt"
	"strings"
	"time"

	"frontdesk/db"
)

// Entry is one change to record: the action ("booking.moved"), what it changed (entity and id;
// the entity defaults to the action's first word, the id is 0 for a singleton such as the
// business settings) and the fields that changed.
type Entry struct {
	Action   string
	Entity   string
	EntityID int64
	Changes  Changes
	// Encoded, when set, is Changes as Encode wrote them ahead of the transaction, and
	// Changes is not read: a writer that knows its changes before it writes keeps their
	// encoding out of the single writer.
	Encoded []byte
}

// Encode is c as Record stores it: every secret hidden, encoded.
func Encode(c Changes) ([]byte, error) {
	if len(c) == 0 {
		return []byte("{}"), nil
	}
	return marshalChanges(cleaned(c))
}

// maxLabel bounds an actor's label: an email address fits.
const maxLabel = 254

// Record writes e inside the transaction q of the change it describes, with the actor and the
// client address the context carries, at now. Every secret is hidden first (changes.go).
func Record(ctx context.Context, q *db.Queries, now time.Time, e Entry) error {
	entity := e.Entity
	if entity == "" {
		entity, _, _ = strings.Cut(e.Action, ".")
	}
	changes := e.Encoded
	if changes == nil {
		var err error
		if changes, err = Encode(e.Changes); err != nil {
			return fmt.Errorf("activity %s: %w", e.Action, err)
		}
	}
	a := ActorFrom(ctx)
	label := a.Label
	if secretValue(label) {
		label = Hidden
	}
	if r := []rune(label); len(r) > maxLabel { // a refused sign-in's label is whatever was typed
		label = string(r[:maxLabel])
	}
	err := q.InsertActivity(ctx, db.InsertActivityParams{
		At: db.Millis(now), ActorKind: string(a.Kind), ActorID: a.ID, ActorLabel: label,
		Action: e.Action, Entity: entity, EntityID: e.EntityID, Changes: string(changes), IP: ipFrom(ctx),
	})
	if err != nil {
		return fmt.Errorf("activity %s: %w", e.Action, err)
	}
	return nil
}

// Write records e in a transaction of its own, for what is an event rather than a change to
// stored data (a sign-in, a refused sign-in).
func Write(ctx context.Context, d *db.DB, now time.Time, e Entry) error {
	return d.InTx(ctx, func(q *db.Queries) error { return Record(ctx, q, now, e) })
}
