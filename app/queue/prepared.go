package queue

import (
	"context"
	"database/sql"
	"sync"
)

// A dispatcher's writer runs a few statements per attempt on the single writer connection
// (claiming, recording), and SQLite spends much of a small statement's time parsing it. Its
// transactions (quietTx) therefore run every statement they have seen before in prepared form:
// a statement is run unprepared the first time, inside the transaction, and prepared once the
// transaction is over — preparing needs the writer's one connection, which the transaction
// holds. (db's statement cache works the same way for InTx; quietTx exists because the
// dispatcher's own writes must not run the after-commit hooks that wake it.)

// maxPrepared bounds the set; the dispatcher's transactions use only a handful of statements.
const maxPrepared = 32

// preparedSet holds the dispatcher's prepared statements on the writer pool.
type preparedSet struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
	seen  map[string]bool // run unprepared, to prepare after the transaction
}

// lookup returns the prepared form of query, or nil after noting it for prepareSeen.
func (p *preparedSet) lookup(query string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st := p.stmts[query]; st != nil {
		return st
	}
	if len(p.stmts)+len(p.seen) < maxPrepared {
		if p.seen == nil {
			p.seen = map[string]bool{}
		}
		p.seen[query] = true
	}
	return nil
}

// prepareSeen prepares the statements noted since the last call. It must run outside any
// transaction on write. A statement that fails to prepare keeps running unprepared.
func (p *preparedSet) prepareSeen(ctx context.Context, write *sql.DB) {
	p.mu.Lock()
	seen := p.seen
	p.seen = nil
	p.mu.Unlock()
	for query := range seen {
		st, err := write.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if p.stmts == nil {
			p.stmts = map[string]*sql.Stmt{}
		}
		if p.stmts[query] == nil {
			p.stmts[query] = st
			st = nil
		}
		p.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

func (p *preparedSet) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, st := range p.stmts {
		st.Close()
	}
	p.stmts, p.seen = nil, nil
}

// preparedTx is a db.DBTX for one transaction that runs statements in their prepared form
// when there is one.
type preparedTx struct {
	tx  *sql.Tx
	set *preparedSet
}

func (t preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.set.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t preparedTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.tx.PrepareContext(ctx, query)
}

func (t preparedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.set.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t preparedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.set.lookup(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
