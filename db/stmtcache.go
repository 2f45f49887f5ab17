package db

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStmts bounds the cache: queries built with a variable number of placeholders (sqlc
// slices) are distinct statements, and past this many the rest simply run unprepared.
const maxCachedStmts = 512

// stmtCache is a DBTX that prepares each distinct statement once and reuses it. modernc's
// SQLite spends about a quarter of a short read, and a third of a booking transaction (its
// INSERT carries the overlap and count triggers), parsing and planning SQL; a prepared
// statement skips that on every later call. database/sql keeps one prepared copy per pool
// connection, so the cache is safe for concurrent use.
type stmtCache struct {
	db      *sql.DB
	mu      sync.RWMutex
	stmts   map[string]*sql.Stmt
	pending map[string]bool // seen inside a transaction, to prepare once it is over
	kept    CountedCache    // see Kept
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.stmts[query]
}

// stmt returns the prepared statement for query, or nil when the cache is full or the
// statement cannot be prepared (the caller then runs it unprepared and gets the real error).
// No lock is held while preparing: that waits for a pool connection.
func (c *stmtCache) stmt(ctx context.Context, query string) *sql.Stmt {
	if s := c.lookup(query); s != nil {
		return s
	}
	c.mu.RLock()
	full := len(c.stmts) >= maxCachedStmts
	c.mu.RUnlock()
	if full {
		return nil
	}
	s, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.stmts[query]; old != nil {
		s.Close() // prepared twice at once; keep the first
		return old
	}
	c.stmts[query] = s
	return s
}

// preparePending prepares the statements transactions ran unprepared (see txStmts).
func (c *stmtCache) preparePending(ctx context.Context) {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	pending := c.pending
	c.pending = map[string]bool{}
	c.mu.Unlock()
	for q := range pending {
		c.stmt(ctx, q)
	}
}

func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return c.db.ExecContext(ctx, query, args...)
}

func (c *stmtCache) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return c.db.PrepareContext(ctx, query)
}

func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, query, args...)
}

func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, query, args...)
}

// txStmts runs a transaction's statements with its pool's prepared statements. One that is not
// prepared yet runs unprepared and is prepared after the transaction: the writer pool has one
// connection, which the transaction holds, so preparing on the pool now would wait forever.
// A statement the transaction runs a second time is prepared on the transaction itself and
// reused until it ends: a bulk write (an import's hundreds of booking INSERTs, each compiling
// the overlap and count triggers) would otherwise parse and plan the same SQL on every row.
type txStmts struct {
	tx    *sql.Tx
	cache *stmtCache
	// seen counts the statements this transaction ran unprepared; local holds its statements
	// bound to it, from the pool's cache or prepared on itself (database/sql closes them when
	// the transaction ends).
	mu    sync.Mutex
	seen  map[string]bool
	local map[string]*sql.Stmt
	// detached runs every statement without its context's cancellation: in a group commit an
	// interrupted statement would roll back the whole transaction, other callers' writes too.
	detached bool
	// db and current are the committer's: the database and the write whose fn is running, for
	// Queries.AfterWrite.
	db      *DB
	current *write
}

// keep remembers s, a statement of this transaction, for the rest of it.
func (t *txStmts) keep(query string, s *sql.Stmt) {
	if t.local == nil {
		t.local = map[string]*sql.Stmt{}
	}
	t.local[query] = s
}

func (t *txStmts) context(ctx context.Context) context.Context {
	if t.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (t *txStmts) stmt(ctx context.Context, query string) *sql.Stmt {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.local[query]; s != nil {
		return s
	}
	if s := t.cache.lookup(query); s != nil {
		// Bound to the transaction once: a batch's writes run the same statements.
		bound := t.tx.StmtContext(ctx, s)
		t.keep(query, bound)
		return bound
	}
	if t.seen[query] {
		s, err := t.tx.PrepareContext(ctx, query)
		if err != nil {
			return nil // run unprepared: the caller gets the real error
		}
		t.keep(query, s)
		return s
	}
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	t.seen[query] = true
	t.cache.mu.Lock()
	if len(t.cache.stmts)+len(t.cache.pending) < maxCachedStmts {
		t.cache.pending[query] = true
	}
	t.cache.mu.Unlock()
	return nil
}

func (t *txStmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.context(ctx)
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t *txStmts) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	ctx = t.context(ctx)
	return t.tx.PrepareContext(ctx, query)
}

func (t *txStmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.context(ctx)
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t *txStmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.context(ctx)
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
