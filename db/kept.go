package db

// Kept returns the value load makes for key under version, kept per database and pool for as
// long as the caller reads the same version. It is for small settings read inside a write
// transaction on every booking (the customer-message plan): the caller reads a change
// counter raised by triggers in the writing transaction itself (etag_versions), in the same
// transaction and before load, so a value kept under version v reflects every write up to v
// and a later version loads afresh. Outside this package's pools (a plain *sql.Tx in a test or
// a one-off command) load simply runs. A value loaded inside a write is kept once that write has
// committed, never if it rolls back. Values are shared: treat them as read-only.
func Kept[T any](q *Queries, key string, version int64, load func() (T, error)) (T, error) {
	k := q.keptValues()
	if k == nil {
		return load()
	}
	if v, ok := k.Lookup(key, version); ok {
		return v.(T), nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	// Inside a write, version may be one the write raised itself: if it rolls back, the next
	// write to the same tables raises the counter to that same reading over other rows. So a
	// value a write loads is kept only once the write has committed.
	if !q.AfterWrite(func(committed bool) {
		if committed {
			k.Store(key, version, v)
		}
	}) {
		k.Store(key, version, v)
	}
	return v, nil
}

// keptValues returns the kept values of the pool q runs on (a CountedCache, as for the
// database's read-side values), or nil for any other DBTX.
func (q *Queries) keptValues() *CountedCache {
	switch d := q.db.(type) {
	case *stmtCache:
		return &d.kept
	case *txStmts:
		return &d.cache.kept
	}
	return nil
}
