package site

import (
	"testing"

	"frontdesk/app/booking"
)

// An idle appliance drops the offers it kept (app/idlefree.go).
func TestForgetKeptDropsOffers(t *testing.T) {
	var s Site
	var v booking.ScheduleVersion
	s.offers.put(v, &offer{})
	if _, ok := s.offers.get(v); !ok {
		t.Fatal("the offer was not kept")
	}
	s.ForgetKept()
	if _, ok := s.offers.get(v); ok {
		t.Fatal("the offer is still kept after ForgetKept")
	}
}
