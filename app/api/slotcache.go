package api

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
)

// Slot answers kept by schedule version (docs/api.md, "GET /v3/available_slots";
// docs/ARCHITECTURE.md, "Caches, and what invalidates them"). The slots of a query
// are a function of its schedule — the catalog part at one catalog version, the providers'
// bookings, class sessions and time off at one reading of their trigger-maintained counters
// (booking.ScheduleVersion) — and of the clock, which only cuts a contiguous run out of the
// clock-free slots (booking.Offered). So the clock-free slots are computed and written as JSON
// once per version and each request copies out the run its clock leaves: a repeated search
// costs the counters' read, not the slot engine and the encoding. The first write that changes
// the schedule changes the version, and the kept answer is never looked up again.
//
// Class answers are not kept: their seats are counted at each request (booking.SessionSlots).
// Memory is bounded like the tagged answers' (respcache.go): at most maxSlotAnswerBytes in all,
// the oldest dropped first.

const maxSlotAnswerBytes = 8 << 20

// slotAnswer is the clock-free answer of one query at one schedule version. It is shared by
// concurrent requests and never modified, but for last.
type slotAnswer struct {
	offered booking.Offered
	run     *resource.SlotRun
	meta    resource.SlotsMetadata // SlotsCount is set per cut
	// last is the body of the most recent cut: the clock cuts the same run for most requests.
	last atomic.Pointer[cutBody]
}

type cutBody struct {
	i, j int
	body []byte
}

func newSlotAnswer(sq slotsQuery, l booking.Loaded) *slotAnswer {
	ans := &slotAnswer{offered: booking.Offer(l.Schedule, sq.first, sq.last)}
	slots := ans.offered.Slots
	ans.meta = resource.SlotsMetadata{
		LocationID: sq.locationID, Date: sq.first.String(), EndDate: sq.last.String(),
		Duration: int64(l.Schedule.Service.Duration.Minutes()),
	}
	if sq.serviceID != 0 {
		id := sq.serviceID
		ans.meta.ServiceID = &id
	}
	ans.run = resource.NewSlotRun(len(slots))
	var date booking.Date
	var dateText string
	for _, s := range slots {
		if s.Date != date || dateText == "" {
			date, dateText = s.Date, s.Date.String()
		}
		ans.run.Add(s.ProviderID, s.ProviderName, dateText, s.Start, s.End)
	}
	return ans
}

// body returns the answer for the clock now, ending in a newline as writeJSON's answers do.
func (s *slotAnswer) body(now time.Time) []byte {
	i, j := s.offered.Cut(now)
	if c := s.last.Load(); c != nil && c.i == i && c.j == j {
		return c.body
	}
	meta := s.meta
	meta.SlotsCount = j - i
	c := &cutBody{i: i, j: j}
	c.body = append(s.run.AppendBody(make([]byte, 0, s.run.Size()+256), i, j, meta), '\n')
	s.last.Store(c)
	return c.body
}

// size is about the memory s holds, with one cut's body.
func (s *slotAnswer) size() int {
	return 2*s.run.Size() + int(unsafe.Sizeof(booking.Slot{}))*cap(s.offered.Slots)
}

// slotAnswers keeps slot answers by schedule version.
type slotAnswers struct {
	mu      sync.Mutex
	answers map[booking.ScheduleVersion]*slotAnswer
	order   []booking.ScheduleVersion // oldest first
	bytes   int
}

func (c *slotAnswers) get(v booking.ScheduleVersion) (*slotAnswer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.answers[v]
	return s, ok
}

// clear forgets every kept answer.
func (c *slotAnswers) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers, c.order, c.bytes = nil, nil, 0
}

func (c *slotAnswers) put(v booking.ScheduleVersion, s *slotAnswer) {
	size := s.size()
	if size > maxSlotAnswerBytes/4 {
		return // a month of a large location: computed per request
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answers == nil {
		c.answers = map[booking.ScheduleVersion]*slotAnswer{}
	}
	if _, ok := c.answers[v]; ok {
		return
	}
	for c.bytes+size > maxSlotAnswerBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.answers[oldest].size()
		delete(c.answers, oldest)
	}
	c.answers[v] = s
	c.order = append(c.order, v)
	c.bytes += size
}
