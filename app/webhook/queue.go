package webhook

import (
	"slices"
	"time"
)

// job is one claimed delivery attempt, everything a worker needs to make it.
type job struct {
	deliveryID int64
	webhookID  int64
	eventID    string
	body       []byte
	attempt    int       // this attempt's number over the delivery's life, 1-based
	series     int       // its number within the current series, 1-based (the schedule's)
	seriesAt   time.Time // when the current series began
	due        time.Time // when it became due; it goes back to this if it is never sent
	url        string
	keys       [][]byte // signing keys, newest first
}

// hookQueue is one webhook's claimed work: first attempts and retries in due order.
type hookQueue struct {
	first, retry []job
	inflight     int
	// more is set when the last claim filled the queue: the outbox may hold more due work,
	// so freeing room should trigger another claim.
	more bool
}

func (h *hookQueue) queued() int { return len(h.first) + len(h.retry) }

// queues holds every webhook's claimed work and hands it out in fair turns.
type queues struct {
	hooks map[int64]*hookQueue
	order []int64 // webhook ids, ascending: the round-robin ring
	turn  int     // index in order of the webhook that goes next
}

func newQueues() *queues { return &queues{hooks: map[int64]*hookQueue{}} }

func (qs *queues) hook(id int64) *hookQueue {
	h, ok := qs.hooks[id]
	if !ok {
		h = &hookQueue{}
		qs.hooks[id] = h
		i, _ := slices.BinarySearch(qs.order, id)
		qs.order = slices.Insert(qs.order, i, id)
		if i < qs.turn {
			qs.turn++
		}
	}
	return h
}

// add queues a claimed job.
func (qs *queues) add(j job, first bool) {
	h := qs.hook(j.webhookID)
	if first {
		h.first = append(h.first, j)
	} else {
		h.retry = append(h.retry, j)
	}
}

// pick returns the next job to send: first attempts before retries across all webhooks, and
// within each class the webhooks take turns, skipping any that has perEndpoint attempts in
// flight. The webhook served moves to the back of the ring.
func (qs *queues) pick(perEndpoint int) (job, bool) {
	n := len(qs.order)
	for _, firstClass := range []bool{true, false} {
		for i := range n {
			idx := (qs.turn + i) % n
			h := qs.hooks[qs.order[idx]]
			q := &h.retry
			if firstClass {
				q = &h.first
			}
			if len(*q) == 0 || h.inflight >= perEndpoint {
				continue
			}
			j := (*q)[0]
			(*q)[0] = job{} // let the body be collected once sent
			*q = (*q)[1:]
			h.inflight++
			qs.turn = (idx + 1) % n
			return j, true
		}
	}
	return job{}, false
}

// finished records that an attempt to webhook id is over. It reports whether the webhook's
// queue has drained far enough (below half of depth) that it is worth claiming more for it.
func (qs *queues) finished(id int64, depth int) bool {
	h, ok := qs.hooks[id]
	if !ok {
		return false
	}
	h.inflight--
	qs.forgetIfIdle(id)
	return h.more && h.queued()+h.inflight < depth/2
}

// drop removes the queued (not in-flight) jobs of webhook id and returns them.
func (qs *queues) drop(id int64) []job {
	h, ok := qs.hooks[id]
	if !ok {
		return nil
	}
	dropped := slices.Concat(h.first, h.retry)
	h.first, h.retry, h.more = nil, nil, false
	qs.forgetIfIdle(id)
	return dropped
}

// forgetIfIdle removes a webhook with nothing queued or in flight, so deleted webhooks do
// not linger in the ring.
func (qs *queues) forgetIfIdle(id int64) {
	h := qs.hooks[id]
	if h == nil || h.queued() > 0 || h.inflight > 0 || h.more {
		return
	}
	delete(qs.hooks, id)
	i, found := slices.BinarySearch(qs.order, id)
	if !found {
		return
	}
	qs.order = slices.Delete(qs.order, i, i+1)
	switch {
	case len(qs.order) == 0:
		qs.turn = 0
	case i < qs.turn:
		qs.turn--
	case qs.turn >= len(qs.order):
		qs.turn = 0
	}
}

// all returns every queued job, for handing them back on shutdown.
func (qs *queues) all() []job {
	var out []job
	for _, h := range qs.hooks {
		out = append(out, h.first...)
		out = append(out, h.retry...)
	}
	return out
}
