package db

import "sync"

// maxCountedValues bounds a CountedCache: past it the cache starts over.
const maxCountedValues = 4096

// CountedCache keeps values read from tables that change counters version (etag_versions,
// raised by triggers in the writing transaction itself): each value is stored with the counter
// reading it was loaded under, and a lookup finds it only with that same reading. So a value
// loaded after reading counter v reflects every write up to v, and once any write raises the
// counter no caller sees the value again.
//
// Use: read the counter, Lookup under it, and on a miss load the value (after reading the
// counter, never before) and Store it under that reading. Values are shared: treat them as
// read-only.
type CountedCache struct {
	mu     sync.Mutex
	values map[any]counted
}

type counted struct {
	version int64
	value   any
}

// Lookup returns the value stored under key for counter reading v.
func (c *CountedCache) Lookup(key any, v int64) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.values[key]
	if !ok || e.version != v {
		return nil, false
	}
	return e.value, true
}

// LookupRecent returns the value stored under key whatever counter reading it was loaded under,
// with that reading: for a caller whose use of the value is checked against the database again
// (app/booking's first look at a new booking's time, which the write transaction checks), an
// old value is better than none.
func (c *CountedCache) LookupRecent(key any) (value any, version int64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.values[key]
	return e.value, e.version, ok
}

// Store keeps value under key for counter reading v, unless a later reading is kept already.
func (c *CountedCache) Store(key any, v int64, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.values[key]; ok && e.version > v {
		return
	}
	if c.values == nil || len(c.values) >= maxCountedValues {
		c.values = map[any]counted{}
	}
	c.values[key] = counted{v, value}
}

// Forget drops every value: the next lookup of each loads it again. A lookup under way keeps
// the value it found, and a load under way may still store its own.
func (c *CountedCache) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values = nil
}

// Counted returns the database's cache of counter-versioned values.
func (d *DB) Counted() *CountedCache { return &d.counted }

// ForgetKept drops the values kept under change counters (Counted, and both pools' Kept),
// under the catalog version (Catalog: schedules' bases, a few MiB for a business of many
// providers) and under the commit stamp (Unchanged, whose keys name those bases): an idle
// appliance gives their memory back, and the first requests after the quiet load them again
// (app/idlefree.go).
func (d *DB) ForgetKept() {
	d.catalog.Forget()
	d.unchanged.forget()
	d.counted.Forget()
	d.readStmts.kept.Forget()
	d.writeStmts.kept.Forget()
}
