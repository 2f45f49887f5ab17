package db

import "sync"

// Hand-offs (app/queue/handoff.go; docs/webhooks.md, "How a first attempt reaches the
// dispatcher"): an outbox's Enqueue, inside a write, may give a new row's first attempt to the
// dispatcher running in this process instead of leaving it for a claim. Enqueue has only its
// write's Queries, so the process's wiring (app/server.go) sets on the database, per outbox, the
// value through which its running dispatcher is found, and Enqueue looks it up through the
// write. On a database with none set (commands, tests without a dispatcher) nothing is handed
// off: rows are claimed as usual.
type handoffs struct{ m sync.Map }

// SetHandoff sets the hand-off value of the outbox named by key: a comparable value of a type
// of the outbox's own, as with context.WithValue, so no other package can read or replace it.
func (d *DB) SetHandoff(key, value any) { d.handoffs.m.Store(key, value) }

// Handoff is the value set under key on the database whose committer runs q's write; nil when
// q is not such a write (see Writer) or nothing was set.
func (q *Queries) Handoff(key any) any {
	d := q.Writer()
	if d == nil {
		return nil
	}
	v, _ := d.handoffs.m.Load(key)
	return v
}
