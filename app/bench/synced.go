package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/db"
)

// syncedInstances is the size of the hostile calendar slots_day_synced gives every provider of
// the slots location unless Config says otherwise: a rule of that many instances, which the
// sync bounds (horizon and calendar.MaxBlocks) before storing.
const syncedInstances = 100000

// slotsDaySynced is slots_day with every provider's own calendar synced (docs/calendars.md):
// each holds a feed of 100,000 instances, bounded when read, and one event on the day asked
// about. The slot search reads the stored blocks and never a calendar server, so its rate must
// stay near slots_day's, measured just before: the ratio is to slots_day's result.
func slotsDaySynced(ctx context.Context, e *env) ScenarioReport {
	if e.slotsDay == nil {
		return unavailable("needs slots_day in the same run (--only slots_day,slots_day_synced)")
	}
	day := e.fx.slotsDay
	zone := day.Location()
	instances := e.cfg.CalendarInstances
	if instances == 0 {
		instances = syncedInstances
	}
	started := time.Now()
	parse := time.Duration(0)
	var stored int
	for _, p := range e.fx.slots {
		feed := fmt.Sprintf("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n"+
			"BEGIN:VEVENT\r\nUID:hostile-%d\r\nDTSTART:%s\r\nDURATION:PT10M\r\nRRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=%d\r\nEND:VEVENT\r\n"+
			"BEGIN:VEVENT\r\nUID:day-%d\r\nDTSTART:%s\r\nDURATION:PT1H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
			p, day.AddDate(0, 0, 1).UTC().Format("20060102T150405Z"), instances,
			p, time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, zone).UTC().Format("20060102T150405Z"))
		t0 := time.Now()
		r, err := calendar.Parse([]byte(feed), calendar.Options{From: e.cfg.Now().Add(-24 * time.Hour), Until: e.cfg.Now().Add(400 * 24 * time.Hour),
			Zone: zone, AllDay: true, Deadline: time.Now().Add(30 * time.Second)})
		parse += time.Since(t0)
		if err != nil {
			return failed(err)
		}
		conn, err := e.connectCalendar(ctx, p)
		if err != nil {
			return failed(err)
		}
		if err := calendar.Synced(ctx, e.app.DB, conn, r.Blocks, "", e.cfg.Now()); err != nil {
			return failed(err)
		}
		stored += len(r.Blocks)
	}
	seeded := time.Since(started)
	defer e.disconnectCalendars(ctx)

	path := fmt.Sprintf("/v3/available_slots?location_id=%d&service_id=%d&start_date=%s", e.fx.slotsLoc, e.fx.quick, day.Format(time.DateOnly))
	r, probed := e.readScenario(ctx, "slots_day_synced", path, 0, func(raw []byte) error {
		var a struct {
			Data struct {
				Slots []json.RawMessage `json:"slots"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return fmt.Errorf("slots answer: %w", err)
		}
		if len(a.Data.Slots) == 0 {
			return fmt.Errorf("got no slots on %s", day.Format(time.DateOnly))
		}
		return nil
	})
	if r.Result == nil {
		return r
	}
	_ = probed
	base := *e.slotsDay
	r.Baseline = &base
	r.targets = []target{atLeast("ratio", 0.70, ratioOf)}
	r.Facts = append(r.Facts,
		Fact{What: "instances in each provider's calendar", Value: float64(instances)},
		Fact{What: "busy blocks stored", Value: float64(stored)},
		Fact{What: "providers", Value: float64(len(e.fx.slots))},
		Fact{What: "calendars read in", Value: parse.Seconds(), Unit: "s"},
		Fact{What: "calendars read and stored in", Value: seeded.Seconds(), Unit: "s"})
	return r
}

// connectCalendar gives provider p an ICS connection that is never due (the bench stores its
// busy time itself).
func (e *env) connectCalendar(ctx context.Context, p int64) (db.CalendarConnection, error) {
	ms := e.cfg.Now().UnixMilli()
	var c db.CalendarConnection
	err := e.app.DB.InTx(ctx, func(q *db.Queries) error {
		id, err := q.InsertCalendarConnection(ctx, db.InsertCalendarConnectionParams{ProviderID: p, Kind: calendar.KindICS,
			URL: "https://calendar.invalid/bench.ics", AllDayBusy: true, StaleBlocks: true, CreatedAt: ms, UpdatedAt: ms})
		if err != nil {
			return err
		}
		if err := q.CalendarPollStarted(ctx, db.CalendarPollStartedParams{NextPollAt: ms + int64(365*24*time.Hour/time.Millisecond), ID: id}); err != nil {
			return err
		}
		c, err = q.CalendarConnection(ctx, id)
		return err
	})
	return c, err
}

// disconnectCalendars removes the bench's calendars, so the scenarios after it book freely.
func (e *env) disconnectCalendars(ctx context.Context) {
	for _, p := range e.fx.slots {
		calendar.Disconnect(ctx, e.app.DB, p, e.cfg.Now())
	}
}
