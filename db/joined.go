package db

import (
	"context"
	"errors"
	"fmt"
)

// A use case owns its transaction: it calls InTx and commits alone. When it is one step of a
// larger write — a payment request reserving its bookings, the booking site creating a client
// and the booking together — its caller marks the context with WithTx inside its own InTx
// function, and the use case's InTx then runs on the caller's transaction instead of queueing
// for the committer, which is busy running that very caller and would never get to it. Each
// joined InTx runs in a savepoint of its own, so a step that fails undoes only itself and the
// caller decides what its error means; nothing commits until the caller's write does
// (docs/ARCHITECTURE.md, "Use cases").

// joinedKey carries the transaction a context joined.
type joinedKey struct{}

// joinedTx is the write a context joined: its queries and the committer's write whose function
// was running when WithTx was called, so a context that outlives that function is refused.
type joinedTx struct {
	q *Queries
	w *write
}

// WithTx returns ctx marked as running inside the write transaction q belongs to: q is the
// Queries an InTx function was handed. Use cases called with the returned context join that
// transaction (InTx, InTxQuiet) and read through it (Reader). It is for the InTx function's own
// goroutine and only while the function runs; a q that is not a write of a committer leaves ctx
// as it is.
func WithTx(ctx context.Context, q *Queries) context.Context {
	t, ok := q.db.(*txStmts)
	if !ok || t.current == nil {
		return ctx
	}
	return context.WithValue(ctx, joinedKey{}, joinedTx{q: q, w: t.current})
}

// joined is the write transaction of d that ctx joined, if any.
func (d *DB) joined(ctx context.Context) (joinedTx, bool) {
	j, ok := ctx.Value(joinedKey{}).(joinedTx)
	if !ok || j.q.db.(*txStmts).db != d {
		return joinedTx{}, false
	}
	return j, true
}

// Reader is where a use case reads: the read pool, or, when ctx joined a write transaction of
// d (WithTx), that transaction, whose uncommitted writes the pool cannot see (a client created a
// moment ago in it, a booking it released).
func (d *DB) Reader(ctx context.Context) *Queries {
	if j, ok := d.joined(ctx); ok {
		return j.q
	}
	return d.R
}

// Joined reports whether ctx runs inside a write transaction of d (WithTx).
func (d *DB) Joined(ctx context.Context) bool {
	_, ok := d.joined(ctx)
	return ok
}

// errJoinedEnded refuses a context marked by WithTx once its InTx function has returned.
var errJoinedEnded = errors.New("db: a context joined to a write transaction used after that write ended")

// inJoined runs fn on the transaction j inside a savepoint: released when fn succeeds (its
// changes then commit with the caller's), rolled back when it fails, so that only fn's own
// changes are undone. What fn registered with Queries.AfterWrite is told it did not commit
// when its savepoint is rolled back.
func (d *DB) inJoined(ctx context.Context, j joinedTx, fn func(q *Queries) error) error {
	t := j.q.db.(*txStmts)
	if t.current != j.w {
		return errJoinedEnded
	}
	if _, err := t.ExecContext(ctx, "SAVEPOINT joined_write"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	settled := len(j.w.settle)
	if err := fn(j.q); err != nil {
		for _, f := range j.w.settle[settled:] {
			f(false)
		}
		j.w.settle = j.w.settle[:settled]
		if _, rerr := t.ExecContext(ctx, "ROLLBACK TO joined_write"); rerr != nil {
			// SQLite already abandoned the whole transaction: the caller's write fails with it.
			return errors.Join(err, fmt.Errorf("rollback to savepoint: %w", rerr))
		}
		if _, rerr := t.ExecContext(ctx, "RELEASE joined_write"); rerr != nil {
			return errors.Join(err, fmt.Errorf("release savepoint: %w", rerr))
		}
		return err
	}
	if _, err := t.ExecContext(ctx, "RELEASE joined_write"); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}
