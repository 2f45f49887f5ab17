package booking

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCalendarBusyBlocksAndIsExplained: a block of the provider's own calendar (calendar_busy,
// stored by the sync worker) removes the slots it overlaps, buffers included; the explainer says
// "busy in their calendar", with the event's summary only when one was stored (the provider
// allows it); stale busy time stops blocking when the owner chose so.
func TestCalendarBusyBlocksAndIsExplained(t *testing.T) {
	ctx := context.Background()
	d := openStore(t, 1)
	at := func(s string) int64 { return santiago(t, s).UnixMilli() }
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Write.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO calendar_connections (id, provider_id, kind, url, created_at, updated_at) VALUES (1, 1, 'ics', 'https://calendar.example/p1.ics', 0, 0)`)
	exec(`INSERT INTO calendar_busy (connection_id, provider_id, starts_at, ends_at, summary) VALUES (1, 1, ?, ?, '')`, at("2026-11-24 11:00"), at("2026-11-24 12:00"))

	day := Date{2026, time.November, 24}
	starts := func() map[string]bool {
		t.Helper()
		l, err := LoadScheduleCached(ctx, d, ScheduleQuery{LocationID: 1, ServiceID: 1, First: day, Last: day, OnlineOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, s := range Slots(l.Schedule, day, day, storeNow) {
			out[s.Start.Format("15:04")] = true
		}
		return out
	}
	got := starts()
	// 30 minutes + 10 after: 10:15 ends its block at 10:55 (free), 10:30 at 11:10 (taken); 12:00 is free again.
	for s, want := range map[string]bool{"10:15": true, "10:30": false, "11:00": false, "11:45": false, "12:00": true} {
		if got[s] != want {
			t.Errorf("%s offered %v, want %v", s, got[s], want)
		}
	}
	r, err := ExplainAt(ctx, d, 1, 1, 1, santiago(t, "2026-11-24 11:00"), storeNow)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != ReasonCalendar || r.Msg.Key != "explain.msg.calendar" || strings.Contains(fmt.Sprint(r.Msg.Args), "Dentist") {
		t.Errorf("explained as %s: %s (%s %v)", r.Code, r.Message, r.Msg.Key, r.Msg.Args)
	}
	exec(`UPDATE calendar_busy SET summary = 'Dentist'`)
	if r, err = ExplainAt(ctx, d, 1, 1, 1, santiago(t, "2026-11-24 11:00"), storeNow); err != nil {
		t.Fatal(err)
	}
	if r.Code != ReasonCalendar || r.Msg.Key != "explain.msg.calendar_event" || !strings.Contains(fmt.Sprint(r.Msg.Args), "Dentist") {
		t.Errorf("explained as %s: %s (%s %v)", r.Code, r.Message, r.Msg.Key, r.Msg.Args)
	}
	if strings.Contains(r.Message, "Dentist") {
		t.Errorf("the API's text names the event: %s", r.Message)
	}

	exec(`UPDATE calendar_connections SET stale = 1`) // stale, but the owner lets stale time block (default)
	if starts()["11:00"] {
		t.Error("stale busy time stopped blocking although the owner chose it blocks")
	}
	exec(`UPDATE calendar_connections SET stale_blocks = 0`)
	if !starts()["11:00"] {
		t.Error("stale busy time still blocks although the owner chose it does not")
	}
}
