package db

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Group commit (docs/ARCHITECTURE.md, "The write path"). Every InTx is handed to one committer
// goroutine, which owns the writer connection's transactions. When it becomes free it takes
// every write that arrived meanwhile, runs each in its own SAVEPOINT inside one transaction,
// commits once, and only then answers the callers whose writes succeeded. A write that fails is
// rolled back to its savepoint: only its own changes are undone, and the others still commit.
//
// Each write sees every earlier write of its batch, exactly as if they had committed one after
// the other, so a batch keeps every guarantee a lone transaction gives (the overlap and seat
// checks, the outbox row in the same commit, nothing acknowledged before the commit). What the
// batch saves is the per-transaction cost: BEGIN and COMMIT, and writing the pages many writes
// share (index leaves, counters, the outbox) to the WAL once per batch instead of once per write.
// Under no contention a batch is one write and costs what a plain transaction costs.

// maxBatch bounds how many writes share a commit, so that one batch never holds its first
// caller's answer back for long.
const maxBatch = 64

// ErrClosed is InTx's error once the database is closed.
var ErrClosed = errors.New("database is closed")

// write is one InTx waiting for the committer.
type write struct {
	ctx  context.Context
	fn   func(q *Queries) error
	done chan writeResult // buffered: the committer never waits for the caller
	// quiet: its commit alone runs no after-commit hooks (InTxQuiet).
	quiet bool
	// settle holds what fn registered with Queries.AfterWrite, told the write's outcome.
	settle []func(committed bool)
}

// settled tells w's AfterWrite functions whether it committed, once.
func (w *write) settled(committed bool) {
	for _, fn := range w.settle {
		fn(committed)
	}
	w.settle = nil
}

type writeResult struct {
	err      error
	panicked bool
	panicVal any // fn's panic, raised again in the caller's goroutine
}

func (w *write) answer(r writeResult) { w.done <- r }

// committer is the goroutine behind InTx.
type committer struct {
	// writes holds the writes waiting for the next batch. Senders send under mu's read lock and
	// Close sets closed under its write lock, so no write is queued after the committer's last
	// look at the queue.
	writes  chan *write
	mu      sync.RWMutex
	closed  bool
	closing chan struct{}
	done    chan struct{}
}

func newCommitter() *committer {
	return &committer{writes: make(chan *write, maxBatch), closing: make(chan struct{}), done: make(chan struct{})}
}

// submit hands fn to the committer and waits for its answer. A caller whose context ends
// before its write is queued gets the context's error; once queued, a write whose caller has
// gone is skipped if it has not started, and runs to its end if it has (see runGroup): the
// answer is always the write's true outcome.
func (d *DB) submit(ctx context.Context, fn func(q *Queries) error, quiet bool) error {
	w := &write{ctx: ctx, fn: fn, done: make(chan writeResult, 1), quiet: quiet}
	c := d.committer
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return ErrClosed
	}
	select {
	case c.writes <- w:
		c.mu.RUnlock()
	case <-ctx.Done():
		c.mu.RUnlock()
		return ctx.Err()
	}
	r := <-w.done
	if r.panicked {
		panic(r.panicVal)
	}
	return r.err
}

// writesWaiting is how many InTx calls are queued behind the one running: the next batch.
func (d *DB) writesWaiting() int { return len(d.committer.writes) }

// commitLoop runs until the database closes and its queue is empty: it takes the next write,
// then every write already queued (up to maxBatch), and commits them together.
func (d *DB) commitLoop() {
	c := d.committer
	defer close(c.done)
	batch := make([]*write, 0, maxBatch)
	for {
		select {
		case w := <-c.writes:
			batch = append(batch[:0], w)
		case <-c.closing:
			if len(c.writes) == 0 {
				return
			}
			batch = append(batch[:0], <-c.writes)
		}
	collect:
		for len(batch) < maxBatch {
			select {
			case w := <-c.writes:
				batch = append(batch, w)
			default:
				break collect
			}
		}
		if len(batch) == 1 {
			d.runAlone(batch[0])
			continue
		}
		for rest := batch; len(rest) > 0; {
			rest = d.runGroup(rest)
		}
	}
}

// runAlone is a batch of one: a plain transaction under the caller's own context, so a caller
// that goes away rolls its write back as it always did.
func (d *DB) runAlone(w *write) {
	ctx := w.ctx
	tx, err := d.Write.BeginTx(ctx, nil)
	if err != nil {
		d.storage.observe(err)
		w.answer(writeResult{err: fmt.Errorf("begin: %w", err)})
		return
	}
	r := call(w, &txStmts{tx: tx, cache: d.writeStmts, db: d})
	switch {
	case r.err != nil || r.panicked:
		tx.Rollback()
		d.storage.observe(r.err)
		w.settled(false)
	default:
		if err := tx.Commit(); err != nil {
			d.storage.observe(err)
			r.err = fmt.Errorf("commit: %w", err)
			w.settled(false)
			break
		}
		w.settled(true)
		d.committed(!w.quiet)
	}
	d.writeStmts.preparePending(context.WithoutCancel(ctx)) // before the answer: see txStmts
	w.answer(r)
}

// runGroup runs batch in one transaction, each write in its own savepoint, and commits. It
// returns the writes it did not get to: when SQLite abandons the whole transaction (a full
// disk, an I/O error), the writes before are lost with it and answered so, and the ones after
// go to a fresh transaction.
//
// The transaction belongs to no caller, so it runs under a context of its own; each write's
// statements run under its caller's context without its cancellation (txStmts.detached). A
// caller that goes away mid-write must not interrupt a statement — SQLite would roll back the
// whole transaction, everyone's writes with it — so a write, once started, finishes; a caller
// gone before its turn is skipped.
func (d *DB) runGroup(batch []*write) (rest []*write) {
	ctx := context.Background()
	tx, err := d.Write.BeginTx(ctx, nil)
	if err != nil {
		d.storage.observe(err)
		for _, w := range batch {
			w.answer(writeResult{err: fmt.Errorf("begin: %w", err)})
		}
		return nil
	}
	// One txStmts for the whole batch: a statement several writes run is prepared on the
	// transaction once, and the savepoint statements come from the writer's prepared cache.
	stmts := &txStmts{tx: tx, cache: d.writeStmts, detached: true, db: d}
	var ok []*write
	wake := false // some committed write is not quiet
	abandon := func(cause error, i int) []*write {
		tx.Rollback()
		batch[i].settled(false)
		for _, w := range ok {
			d.storage.observe(cause)
			w.settled(false)
			w.answer(writeResult{err: fmt.Errorf("rolled back with its transaction: %w", cause)})
		}
		return batch[i+1:]
	}
	for i, w := range batch {
		if err := w.ctx.Err(); err != nil {
			w.answer(writeResult{err: err})
			continue
		}
		if _, err := stmts.ExecContext(ctx, "SAVEPOINT group_write"); err != nil {
			w.answer(writeResult{err: fmt.Errorf("savepoint: %w", err)})
			return abandon(err, i)
		}
		r := call(w, stmts)
		if r.err == nil && !r.panicked {
			if _, err := stmts.ExecContext(ctx, "RELEASE group_write"); err != nil {
				d.storage.observe(err)
				w.answer(writeResult{err: fmt.Errorf("release savepoint: %w", err)})
				return abandon(err, i)
			}
			ok = append(ok, w)
			wake = wake || !w.quiet
			continue
		}
		d.storage.observe(r.err)
		w.settled(false)
		w.answer(r) // its own changes are undone below; nothing of it will commit
		if err := rollbackTo(ctx, stmts); err != nil {
			// SQLite already rolled the whole transaction back (sqlite.org/lang_transaction.html,
			// "Response To Errors Within A Transaction"): there is no savepoint left.
			return abandon(r.err, i)
		}
	}
	if len(ok) == 0 {
		tx.Rollback()
		return nil
	}
	if err := tx.Commit(); err != nil {
		d.storage.observe(err)
		for _, w := range ok {
			w.settled(false)
			w.answer(writeResult{err: fmt.Errorf("commit: %w", err)})
		}
		return nil
	}
	// Before any answer: a caller that hears its write committed also finds what the batch's
	// AfterWrite functions did (app/queue's hand-off relies on it when it stops).
	for _, w := range ok {
		w.settled(true)
	}
	d.committed(wake)
	// Statements first seen in this transaction are prepared before its writes are answered
	// (see txStmts); after a rollback they stay pending for the next commit.
	d.writeStmts.preparePending(ctx)
	for _, w := range ok {
		w.answer(writeResult{})
	}
	return nil
}

// rollbackTo undoes the current write's changes and drops its savepoint.
func rollbackTo(ctx context.Context, stmts *txStmts) error {
	if _, err := stmts.ExecContext(ctx, "ROLLBACK TO group_write"); err != nil {
		return err
	}
	_, err := stmts.ExecContext(ctx, "RELEASE group_write")
	return err
}

// call runs w's function over stmts, turning a panic into a result for the caller to raise.
func call(w *write, stmts *txStmts) (r writeResult) {
	defer func() {
		if v := recover(); v != nil {
			r = writeResult{err: fmt.Errorf("write panicked: %v", v), panicked: true, panicVal: v}
		}
	}()
	stmts.current = w
	defer func() { stmts.current = nil }()
	return writeResult{err: w.fn(New(stmts))}
}

// committed records a commit: the storage works, and, if wake, whoever waits for new rows is
// woken.
func (d *DB) committed(wake bool) {
	d.storage.observe(nil)
	d.checkpoints.committed()
	if !wake {
		return
	}
	for _, fn := range d.afterCommit {
		fn()
	}
}

// closeCommitter stops the committer once every queued write is done; later InTx calls get
// ErrClosed.
func (d *DB) closeCommitter() {
	c := d.committer
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		close(c.closing)
	}
	c.mu.Unlock()
	<-c.done
}
