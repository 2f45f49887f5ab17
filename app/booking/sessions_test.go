package booking

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// classSchedule is a yoga class at a Santiago location: provider 1 (Ana) and provider 2 (Ben,
// who does not give the class), sessions on Monday 2026-11-30 and Tuesday 2026-12-01.
func classSchedule(t *testing.T) (Schedule, map[string]Session) {
	t.Helper()
	zone := mustZone(t, "America/Santiago")
	s := Schedule{
		Zone:    zone,
		Hours:   []WeeklyHours{{time.Monday, hm("09:00"), hm("18:00")}},
		Service: Service{ID: 9, Duration: time.Hour, BufferAfter: 10 * time.Minute, Capacity: 8},
		Providers: []Provider{
			{ID: 1, Name: "Ana", OffersService: true},
			{ID: 2, Name: "Ben", OffersService: false},
		},
		Policy: Policy{Step: 15 * time.Minute, MinNotice: time.Hour, MaxAdvance: 10 * 24 * time.Hour},
	}
	sessions := map[string]Session{
		"open":      {ID: 1, ProviderID: 1, Start: at(t, zone, "2026-11-30 07:00"), Capacity: 8, Booked: 3},
		"full":      {ID: 2, ProviderID: 1, Start: at(t, zone, "2026-11-30 10:00"), Capacity: 8, Booked: 8, Waiting: 2},
		"over":      {ID: 3, ProviderID: 1, Start: at(t, zone, "2026-11-30 12:00"), Capacity: 4, Booked: 6},
		"cancelled": {ID: 4, ProviderID: 1, Start: at(t, zone, "2026-11-30 14:00"), Capacity: 8, Cancelled: true},
		"off":       {ID: 5, ProviderID: 1, Start: at(t, zone, "2026-11-30 16:00"), Capacity: 8},
		"closed":    {ID: 6, ProviderID: 1, Start: at(t, zone, "2026-12-01 09:00"), Capacity: 8},
		"soon":      {ID: 7, ProviderID: 1, Start: at(t, zone, "2026-11-23 09:30"), Capacity: 8},
		"far":       {ID: 8, ProviderID: 1, Start: at(t, zone, "2026-12-04 09:00"), Capacity: 8},
		"not ben's": {ID: 9, ProviderID: 2, Start: at(t, zone, "2026-11-30 18:00"), Capacity: 8},
		"late":      {ID: 10, ProviderID: 1, Start: at(t, zone, "2026-11-30 21:00"), Capacity: 12, Booked: 11, Room: "Studio 2"},
	}
	for k, x := range sessions {
		x.End = x.Start.Add(time.Hour)
		sessions[k] = x
		s.Sessions = append(s.Sessions, x)
	}
	s.Providers[0].TimeOff = []Interval{{at(t, zone, "2026-11-30 16:30"), at(t, zone, "2026-11-30 17:30")}}
	s.Closures = []Date{{2026, time.December, 1}}
	return s, sessions
}

// TestSessionSlotsAndExplainAgree: a class lists its sessions, not grid slots, with seats; and
// for every session Explain gives ReasonOK exactly when SessionSlots lists it, or the rule
// that removes it. The opening hours do not bind a session (07:00 and 21:00 are offered).
func TestSessionSlotsAndExplainAgree(t *testing.T) {
	s, sessions := classSchedule(t)
	now := storeNow // Monday 2026-11-23 09:00 in Santiago
	first, last := Date{2026, time.November, 23}, Date{2026, time.December, 10}
	got := map[int64]SessionSlot{}
	for _, x := range SessionSlots(s, first, last, now, false) {
		got[x.SessionID] = x
	}
	want := map[string]ReasonCode{
		"open": ReasonOK, "late": ReasonOK, "full": ReasonClassFull, "over": ReasonClassFull,
		"cancelled": ReasonSessionCancelled, "off": ReasonTimeOff, "closed": ReasonClosed,
		"soon": ReasonNotice, "far": ReasonBeyondAdvance, "not ben's": ReasonServiceNotOffered,
	}
	for name, code := range want {
		x := sessions[name]
		r := Explain(s, x.ProviderID, x.Start, now)
		if r.Code != code {
			t.Errorf("%s: Explain got %s (%s), want %s", name, r.Code, r.Message, code)
		}
		if _, listed := got[x.ID]; listed != (code == ReasonOK) {
			t.Errorf("%s: listed %v, but Explain says %s", name, listed, r.Code)
		}
	}
	if x := got[10]; x.SeatsLeft != 1 || x.Capacity != 12 || x.Room != "Studio 2" || x.End.Sub(x.Start) != time.Hour ||
		x.Date != (Date{2026, time.November, 30}) || x.Start.Format("15:04 -07:00") != "21:00 -03:00" {
		t.Errorf("late session: got %+v", x)
	}
	// With full sessions asked for, the full ones come too, with no seat left.
	full := map[int64]int{}
	for _, x := range SessionSlots(s, first, last, now, true) {
		full[x.SessionID] = x.SeatsLeft
	}
	if left, ok := full[2]; !ok || left != 0 || len(full) != 4 {
		t.Errorf("with full sessions: got %v, want open, late, full and over (0 seats)", full)
	}
	// A start with no session names the day's session times.
	r := Explain(s, 1, at(t, s.Zone, "2026-11-30 10:30"), now)
	if r.Code != ReasonNotSessionTime || r.Message == "" || !contains2(r.Message, "07:00", "10:00", "12:00", "16:00", "21:00") {
		t.Errorf("10:30: got %s %q", r.Code, r.Message)
	}
	// The slot grid never applies to a class.
	if n := len(Slots(s, first, last, now)); n != 0 {
		t.Errorf("Slots for a class: got %d grid slots, want none", n)
	}
}

func contains2(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// TestTeachingBlocksOtherServices: a session the provider gives takes the provider out of the
// slot grid of every other service for its block, and Explain says why; time around it stays
// offered.
func TestTeachingBlocksOtherServices(t *testing.T) {
	zone := mustZone(t, "America/Santiago")
	s := Schedule{
		Zone:    zone,
		Hours:   []WeeklyHours{{time.Monday, hm("09:00"), hm("18:00")}},
		Service: Service{ID: 1, Duration: 30 * time.Minute},
		Providers: []Provider{{ID: 1, Name: "Ana", OffersService: true,
			Shifts:   []Shift{{Weekday: time.Monday, Open: hm("09:00"), Close: hm("12:00")}},
			Teaching: []Interval{{at(t, zone, "2026-11-30 10:00"), at(t, zone, "2026-11-30 11:10")}}}},
		Policy: Policy{Step: 30 * time.Minute},
	}
	day := Date{2026, time.November, 30}
	var starts []string
	for _, x := range Slots(s, day, day, storeNow) {
		starts = append(starts, x.Start.Format("15:04"))
	}
	if fmt.Sprint(starts) != "[09:00 09:30 11:30]" {
		t.Errorf("got starts %v, want 09:00 09:30 11:30", starts)
	}
	if r := Explain(s, 1, at(t, zone, "2026-11-30 10:30"), storeNow); r.Code != ReasonTeaching {
		t.Errorf("10:30: got %s, want %s", r.Code, ReasonTeaching)
	}
	s.Service.BufferAfter = 15 * time.Minute
	if r := Explain(s, 1, at(t, zone, "2026-11-30 09:30"), storeNow); r.Code != ReasonBuffer {
		t.Errorf("09:30 with a buffer reaching into the class: got %s, want %s", r.Code, ReasonBuffer)
	}
}
