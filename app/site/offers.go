package site

import (
	"sync"
	"unsafe"

	"frontdesk/app/booking"
)

// The date picker's slots kept by schedule version, as the API keeps available_slots answers
// (app/api/slotcache.go): the slots of a fortnight are a function of its schedule, which
// booking.ScheduleVersion names, and of the clock, which only cuts a contiguous run out of the
// clock-free slots (booking.Offered). A visitor paging through the fortnights, or many visitors
// looking at the same one, cost the version's read and the cut, not the slot engine. The first
// write that changes the schedule changes the version, and the kept slots are never looked up
// again. Memory is bounded: at most maxOfferBytes in all, the oldest dropped first.

const maxOfferBytes = 8 << 20

// offer is the clock-free slots of one picker query at one schedule version, with the schedule
// they were found in. It is shared by concurrent requests and never modified.
type offer struct {
	loaded  booking.Loaded
	offered booking.Offered
}

// size is about the memory o holds.
func (o *offer) size() int { return int(unsafe.Sizeof(booking.Slot{}))*cap(o.offered.Slots) + 512 }

// offers keeps offers by schedule version.
type offers struct {
	mu     sync.Mutex
	kept   map[booking.ScheduleVersion]*offer
	order  []booking.ScheduleVersion // oldest first
	nbytes int
}

func (c *offers) get(v booking.ScheduleVersion) (*offer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.kept[v]
	return o, ok
}

// ForgetKept drops the offers kept by schedule version: an idle appliance gives their memory
// back (app/idlefree.go), and the first visitors after the quiet find them again.
func (s *Site) ForgetKept() { s.offers.clear() }

// clear forgets every kept offer.
func (c *offers) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept, c.order, c.nbytes = nil, nil, 0
}

func (c *offers) put(v booking.ScheduleVersion, o *offer) {
	size := o.size()
	if size > maxOfferBytes/4 {
		return // many weeks of a large location: found per request
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = map[booking.ScheduleVersion]*offer{}
	}
	if _, ok := c.kept[v]; ok {
		return
	}
	for c.nbytes+size > maxOfferBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.nbytes -= c.kept[oldest].size()
		delete(c.kept, oldest)
	}
	c.kept[v] = o
	c.order = append(c.order, v)
	c.nbytes += size
}
