package db

import "sync"

// maxUnchanged bounds the readings kept by Unchanged; past it they start over.
const maxUnchanged = 4096

// Unchanged returns what read returns for key, kept for as long as nothing commits to the
// database: the stamp (Stamp) is read before read runs, and the value is used again only by a
// caller that finds the same stamp, so no commit from any connection or process lies between
// the reading and its use. It is for the change counters requests read before anything else
// (the catalog version, ETag counters, a schedule's busy-time counters): while nothing commits
// they cost no statement. key must be comparable and name everything read depends on.
func Unchanged[T any](d *DB, key any, read func() (T, error)) (T, error) {
	s, ok := d.Stamp()
	if !ok {
		return read()
	}
	if v, hit := d.unchanged.get(s, key); hit {
		return v.(T), nil
	}
	v, err := read()
	if err == nil {
		d.unchanged.put(s, key, v)
	}
	return v, err
}

type stampedValue struct {
	stamp Stamp
	value any
}

type unchangedReadings struct {
	mu     sync.RWMutex
	values map[any]stampedValue
}

func (u *unchangedReadings) get(s Stamp, key any) (any, bool) {
	u.mu.RLock()
	defer u.mu.RUnlock()
	v, ok := u.values[key]
	return v.value, ok && v.stamp == s
}

// forget drops every reading: keys hold what they name (a schedule's base, say), which an idle
// appliance gives back.
func (u *unchangedReadings) forget() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.values = nil
}

func (u *unchangedReadings) put(s Stamp, key any, value any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.values == nil || len(u.values) >= maxUnchanged {
		u.values = map[any]stampedValue{}
	}
	u.values[key] = stampedValue{s, value}
}
