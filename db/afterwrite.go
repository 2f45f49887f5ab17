package db

// AfterWrite registers fn to learn the outcome of the write q belongs to: it runs exactly once,
// with committed true only if the write's changes committed (its savepoint was released and its
// batch's COMMIT succeeded), false if they were rolled back or the commit failed. It runs on the
// committer's goroutine, after the commit and before any caller of the batch is answered, so it
// must be quick and must not block or write (app/queue's hand-off only moves a job in memory).
//
// It reports false, registering nothing, when q is not a write of this database's committer
// (a read transaction, plain Queries over a connection): the caller then cannot learn the
// outcome and must not rely on it.
func (q *Queries) AfterWrite(fn func(committed bool)) bool {
	t, ok := q.db.(*txStmts)
	if !ok || t.current == nil {
		return false
	}
	t.current.settle = append(t.current.settle, fn)
	return true
}

// Writer is the database whose committer runs the write q belongs to, nil when q is not such a
// write (see AfterWrite).
func (q *Queries) Writer() *DB {
	t, ok := q.db.(*txStmts)
	if !ok || t.current == nil {
		return nil
	}
	return t.db
}
