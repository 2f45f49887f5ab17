package queue

import (
	"slices"
	"time"
)

// Job is one claimed row, everything a worker needs to make one attempt.
type Job[P any] struct {
	ID       int64     // the row's id
	Target   int64     // who it goes to: fair turns and the per-target cap are per target
	Attempt  int       // this attempt's number over the row's life, 1-based
	Series   int       // its number within the current series, 1-based (the schedule's)
	SeriesAt time.Time // when the current series began
	Due      time.Time // when it became due; it goes back to this if it is never sent
	Payload  P         // what the sender sends
	// Ordered jobs go to their target one at a time, in claim order, each after the one before
	// has finished: a replay of missed events arrives oldest first, however many attempts the
	// target may otherwise take at once.
	Ordered bool
}

// lane is one target's claimed work: first attempts and retries in due order.
type lane[P any] struct {
	first, retry []Job[P]
	inflight     int
	// ordered is set while an Ordered job is in flight: nothing else goes to the target.
	ordered bool
	// extra is how many of inflight run outside the shared pool (adapt.go): a slow target's
	// attempts beyond its share of the pool.
	extra int
	// more is set when the last claim filled the lane: the outbox may hold more due work,
	// so freeing room should trigger another claim.
	more bool
}

func (l *lane[P]) queued() int { return len(l.first) + len(l.retry) }

// lanes holds every target's claimed work and hands it out in fair turns.
type lanes[P any] struct {
	byTarget map[int64]*lane[P]
	order    []int64 // target ids, ascending: the round-robin ring
	turn     int     // index in order of the target that goes next
}

func newLanes[P any]() *lanes[P] { return &lanes[P]{byTarget: map[int64]*lane[P]{}} }

func (ls *lanes[P]) lane(id int64) *lane[P] {
	l, ok := ls.byTarget[id]
	if !ok {
		l = &lane[P]{}
		ls.byTarget[id] = l
		i, _ := slices.BinarySearch(ls.order, id)
		ls.order = slices.Insert(ls.order, i, id)
		if i < ls.turn {
			ls.turn++
		}
	}
	return l
}

// add queues a claimed job.
func (ls *lanes[P]) add(j Job[P], first bool) {
	l := ls.lane(j.Target)
	if first {
		l.first = append(l.first, j)
	} else {
		l.retry = append(l.retry, j)
	}
}

// pick returns the next job to send with a slot of the shared pool, at most perTarget in
// flight per target (see take).
func (ls *lanes[P]) pick(perTarget int) (Job[P], bool) {
	j, _, ok := ls.take(func(int64) int { return perTarget }, true, false, nil)
	return j, ok
}

// take returns the next job to send: first attempts before retries across all targets, and
// within each class the targets take turns. A target sends with a slot of the shared pool
// while it has fewer than share(target) of them and the pool has one free (pooled), otherwise with an
// extra slot of its own while it has fewer than limit(target) in flight and extra slots are
// left (extraFree); a target with neither is skipped. extra says which the job got. The target
// served moves to the back of the ring.
func (ls *lanes[P]) take(share func(target int64) int, pooled, extraFree bool, limit func(target int64) int) (j Job[P], extra, ok bool) {
	n := len(ls.order)
	for _, firstClass := range []bool{true, false} {
		for i := range n {
			idx := (ls.turn + i) % n
			l := ls.byTarget[ls.order[idx]]
			q := &l.retry
			if firstClass {
				q = &l.first
			}
			if len(*q) == 0 || l.ordered || ((*q)[0].Ordered && l.inflight > 0) {
				continue
			}
			shared := pooled && l.inflight-l.extra < share(ls.order[idx])
			if !shared && !(extraFree && l.inflight < limit(ls.order[idx])) {
				continue
			}
			j := (*q)[0]
			l.ordered = j.Ordered
			(*q)[0] = Job[P]{} // let the payload be collected once sent
			*q = (*q)[1:]
			l.inflight++
			if !shared {
				l.extra++
			}
			ls.turn = (idx + 1) % n
			return j, !shared, true
		}
	}
	return Job[P]{}, false, false
}

// finished records that an attempt to target id that used a slot of the shared pool is over
// (see end).
func (ls *lanes[P]) finished(id int64, depth int) bool {
	return ls.end(id, false, depth)
}

// end records that an attempt to target id is over, extra if it ran on an extra slot. It
// reports whether the target's lane has drained far enough (below half of depth) that it is
// worth claiming more for it.
func (ls *lanes[P]) end(id int64, extra bool, depth int) bool {
	l, ok := ls.byTarget[id]
	if !ok {
		return false
	}
	l.inflight--
	if extra {
		l.extra--
	}
	if l.inflight == 0 {
		l.ordered = false
	}
	ls.forgetIfIdle(id)
	return l.more && l.queued()+l.inflight < depth/2
}

// drop removes the queued (not in-flight) jobs of target id and returns them.
func (ls *lanes[P]) drop(id int64) []Job[P] {
	l, ok := ls.byTarget[id]
	if !ok {
		return nil
	}
	dropped := slices.Concat(l.first, l.retry)
	l.first, l.retry, l.more = nil, nil, false
	ls.forgetIfIdle(id)
	return dropped
}

// forgetIfIdle removes a target with nothing queued or in flight, so deleted targets do not
// linger in the ring.
func (ls *lanes[P]) forgetIfIdle(id int64) {
	l := ls.byTarget[id]
	if l == nil || l.queued() > 0 || l.inflight > 0 || l.more {
		return
	}
	delete(ls.byTarget, id)
	i, found := slices.BinarySearch(ls.order, id)
	if !found {
		return
	}
	ls.order = slices.Delete(ls.order, i, i+1)
	switch {
	case len(ls.order) == 0:
		ls.turn = 0
	case i < ls.turn:
		ls.turn--
	case ls.turn >= len(ls.order):
		ls.turn = 0
	}
}

// all returns every queued job, for handing them back on shutdown.
func (ls *lanes[P]) all() []Job[P] {
	var out []Job[P]
	for _, l := range ls.byTarget {
		out = append(out, l.first...)
		out = append(out, l.retry...)
	}
	return out
}
