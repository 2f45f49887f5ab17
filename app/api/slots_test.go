package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	_ "time/tzdata" // Santiago's and New York's rules must not depend on the host
)

// slotsBody is GET /v3/available_slots as a client reads it.
type slotsBody struct {
	Data struct {
		Slots []struct {
			StartTime    string `json:"start_time"`
			EndTime      string `json:"end_time"`
			ProviderID   int64  `json:"provider_id"`
			ProviderName string `json:"provider_name"`
			Date         string `json:"date"`
			StartsAt     string `json:"starts_at"`
			EndsAt       string `json:"ends_at"`
		} `json:"slots"`
		Metadata struct {
			LocationID int64  `json:"location_id"`
			Date       string `json:"date"`
			EndDate    string `json:"end_date"`
			ServiceID  *int64 `json:"service_id"`
			Duration   int64  `json:"duration"`
			SlotsCount int    `json:"slots_count"`
		} `json:"metadata"`
	} `json:"data"`
}

// getSlots calls available_slots, checks the status and the OpenAPI shape, and decodes.
func (f *fixture) getSlots(t *testing.T, query string) slotsBody {
	t.Helper()
	resp, raw := f.call("GET", "/v3/available_slots?"+query, nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "listAvailableSlots", resp, raw)
	var out slotsBody
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if out.Data.Metadata.SlotsCount != len(out.Data.Slots) {
		t.Fatalf("slots_count %d, want %d (the number of slots)", out.Data.Metadata.SlotsCount, len(out.Data.Slots))
	}
	return out
}

// short renders each slot as "2026-11-24 09:00-09:30 Ana 2026-11-24T09:00:00-03:00".
func (b slotsBody) short() []string {
	out := make([]string, len(b.Data.Slots))
	for i, s := range b.Data.Slots {
		out[i] = fmt.Sprintf("%s %s-%s %s %s", s.Date, s.StartTime, s.EndTime, s.ProviderName, s.StartsAt)
	}
	return out
}

// series lists "date HH:MM-HH:MM name date THH:MM:00offset" for starts from..to every step
// minutes, for writing expected lists of plain days compactly.
func series(date, name, offset string, fromMin, toMin, step, dur int) []string {
	var out []string
	for m := fromMin; m <= toMin; m += step {
		e := m + dur
		out = append(out, fmt.Sprintf("%s %02d:%02d-%02d:%02d %s %sT%02d:%02d:00%s", date, m/60, m%60, e/60, e%60, name, date, m/60, m%60, offset))
	}
	return out
}

func wantSlots(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got %d slots:\n\t%s\nwant %d:\n\t%s", len(got), strings.Join(got, "\n\t"), len(want), strings.Join(want, "\n\t"))
	}
}

func TestAvailableSlotsScenarios(t *testing.T) {
	const tue = "2026-11-24"
	cases := []struct {
		name  string
		setup []string // SQL run before the query
		query string
		want  []string
	}{
		{
			name:  "shift with a break",
			query: "location_id=1&service_id=1&provider_id=2&start_date=" + tue,
			want: append(series(tue, "Ben", "-03:00", 9*60, 12*60+30, 15, 30),
				series(tue, "Ben", "-03:00", 14*60, 17*60+30, 15, 30)...),
		},
		{
			name: "buffer after and a booking at another location",
			// Ana is booked 09:00–10:00 in New York (11:00–12:00 in Santiago).
			setup: []string{`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
				block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
				VALUES (2, 1, 1, 1, 1, 1795528800000, 1795532400000, 1795528800000, 1795532400000, 0, 0, 0, 0)`},
			query: "location_id=1&service_id=2&start_date=" + tue,
			want: append(series(tue, "Ana", "-03:00", 9*60, 9*60+15, 15, 90),
				series(tue, "Ana", "-03:00", 14*60, 16*60+15, 15, 90)...),
		},
		{
			name: "cancelled bookings do not block",
			setup: []string{`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
				block_start_at, block_end_at, price_cents, list_price_cents, created_at, updated_at)
				VALUES (2, 1, 1, 1, 5, 1795528800000, 1795532400000, 1795528800000, 1795532400000, 0, 0, 0, 0)`},
			query: "location_id=1&service_id=2&start_date=" + tue,
			want: append(series(tue, "Ana", "-03:00", 9*60, 11*60+15, 15, 90),
				series(tue, "Ana", "-03:00", 14*60, 16*60+15, 15, 90)...),
		},
		{
			name:  "time off, minimum notice and a provider who does not offer the service",
			setup: []string{`UPDATE company SET min_notice_min = 120`, `INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, 1795442400000, 1795449600000)`},
			// Monday: now is 09:00, so the earliest start is 11:00; Ana is off 11:00–13:00; Ben
			// offers only the haircut; Colour is Ana's.
			query: "location_id=1&service_id=2&start_date=2026-11-23",
			want:  series("2026-11-23", "Ana", "-03:00", 14*60, 16*60+15, 15, 90),
		},
		{
			name:  "advance window",
			setup: []string{`UPDATE company SET max_advance_days = 1`},
			// now + 1 day is Tuesday 09:00 in Santiago: only that start is left on Tuesday.
			query: "location_id=1&service_id=1&provider_id=2&start_date=" + tue,
			want:  series(tue, "Ben", "-03:00", 9*60, 9*60, 15, 30),
		},
		{
			name:  "service not bookable online",
			query: "location_id=2&service_id=4&start_date=" + tue,
			want:  nil,
		},
		{
			name:  "provider with online booking off",
			setup: []string{`UPDATE providers SET online_booking = 0 WHERE id = 2`},
			query: "location_id=1&service_id=1&start_date=" + tue + "&provider_id=2",
			want:  nil,
		},
		{
			name:  "inactive provider",
			query: "location_id=1&service_id=1&start_date=" + tue + "&provider_id=4",
			want:  nil,
		},
		{
			name:  "inactive service",
			query: "location_id=1&service_id=5&start_date=" + tue,
			want:  nil,
		},
		{
			name:  "closure",
			setup: []string{`INSERT INTO location_closures (location_id, date) VALUES (1, '2026-11-24')`},
			query: "location_id=1&service_id=1&start_date=" + tue,
			want:  nil,
		},
		{
			name:  "without a service: one slot step of free time",
			setup: []string{`UPDATE company SET slot_step_min = 60`, `INSERT INTO provider_time_off (provider_id, starts_at, ends_at) VALUES (1, 1795479600000, 1795522800000)`},
			// Ana is off from Tuesday 00:20 to 12:20 UTC (to 09:20 in Santiago).
			query: "location_id=1&start_date=" + tue,
			want: []string{
				tue + " 09:00-10:00 Ben " + tue + "T09:00:00-03:00",
				tue + " 10:00-11:00 Ana " + tue + "T10:00:00-03:00", tue + " 10:00-11:00 Ben " + tue + "T10:00:00-03:00",
				tue + " 11:00-12:00 Ana " + tue + "T11:00:00-03:00", tue + " 11:00-12:00 Ben " + tue + "T11:00:00-03:00",
				tue + " 12:00-13:00 Ana " + tue + "T12:00:00-03:00", tue + " 12:00-13:00 Ben " + tue + "T12:00:00-03:00",
				tue + " 14:00-15:00 Ana " + tue + "T14:00:00-03:00", tue + " 14:00-15:00 Ben " + tue + "T14:00:00-03:00",
				tue + " 15:00-16:00 Ana " + tue + "T15:00:00-03:00", tue + " 15:00-16:00 Ben " + tue + "T15:00:00-03:00",
				tue + " 16:00-17:00 Ana " + tue + "T16:00:00-03:00", tue + " 16:00-17:00 Ben " + tue + "T16:00:00-03:00",
				tue + " 17:00-18:00 Ana " + tue + "T17:00:00-03:00", tue + " 17:00-18:00 Ben " + tue + "T17:00:00-03:00",
			},
		},
		{
			name:  "New York location in its own offset",
			query: "location_id=2&service_id=3&start_date=" + tue + "&provider_id=3",
			want: append(series(tue, "Cleo", "-05:00", 9*60, 12*60+15, 15, 45),
				series(tue, "Cleo", "-05:00", 14*60, 17*60+15, 15, 45)...),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			for _, q := range c.setup {
				bkExec(t, f, q)
			}
			wantSlots(t, f.getSlots(t, c.query).short(), c.want)
		})
	}
}

// TestAvailableSlotsFollowCatalogChanges: the catalog part of a schedule is cached between
// requests (booking.LoadScheduleCached); an owner's change must show on the very next request.
func TestAvailableSlotsFollowCatalogChanges(t *testing.T) {
	const tue = "2026-11-24"
	query := "location_id=1&service_id=1&provider_id=2&start_date=" + tue
	ben := append(series(tue, "Ben", "-03:00", 9*60, 12*60+30, 15, 30), series(tue, "Ben", "-03:00", 14*60, 17*60+30, 15, 30)...)
	f := newFixture(t)
	for _, c := range []struct {
		name  string
		setup string
		want  []string
	}{
		{"before any change", "", ben},
		{"renamed", `UPDATE providers SET public_name = 'Benjamín' WHERE id = 2`,
			append(series(tue, "Benjamín", "-03:00", 9*60, 12*60+30, 15, 30), series(tue, "Benjamín", "-03:00", 14*60, 17*60+30, 15, 30)...)},
		{"online booking off", `UPDATE providers SET online_booking = 0 WHERE id = 2`, nil},
		{"online booking on again", `UPDATE providers SET online_booking = 1, public_name = 'Ben' WHERE id = 2`, ben},
		{"shorter shift", `UPDATE provider_hours SET close_min = 720 WHERE provider_id = 2 AND location_id = 1 AND day_id = 2`,
			series(tue, "Ben", "-03:00", 9*60, 11*60+30, 15, 30)},
		{"closure", `INSERT INTO location_closures (location_id, date) VALUES (1, '` + tue + `')`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != "" {
				bkExec(t, f, c.setup)
			}
			wantSlots(t, f.getSlots(t, query).short(), c.want)
		})
	}
}

func TestAvailableSlotsDateRange(t *testing.T) {
	f := newFixture(t)
	got := f.getSlots(t, "location_id=1&service_id=1&provider_id=2&start_date=2026-11-23&end_date=2026-11-29")
	md := got.Data.Metadata
	if md.LocationID != 1 || md.Date != "2026-11-23" || md.EndDate != "2026-11-29" || md.ServiceID == nil || *md.ServiceID != 1 || md.Duration != 30 {
		t.Fatalf("got metadata %+v, want location 1, 2026-11-23…2026-11-29, service 1, 30 minutes", md)
	}
	perDate := map[string]int{}
	for _, s := range got.Data.Slots {
		perDate[s.Date]++
		if !strings.HasPrefix(s.StartsAt, s.Date+"T"+s.StartTime+":00") {
			t.Fatalf("slot %+v: starts_at does not match its date and start_time", s)
		}
	}
	// Monday to Friday a full day for Ben (now is Monday 09:00, the first slot); no work on
	// Saturday; closed on Sunday.
	want := map[string]int{"2026-11-23": 30, "2026-11-24": 30, "2026-11-25": 30, "2026-11-26": 30, "2026-11-27": 30}
	if fmt.Sprint(perDate) != fmt.Sprint(want) {
		t.Fatalf("got slots per date %v, want %v", perDate, want)
	}

	// 31 days is the limit.
	got = f.getSlots(t, "location_id=1&service_id=1&provider_id=2&start_date=2026-12-01&end_date=2026-12-31")
	if got.Data.Metadata.EndDate != "2026-12-31" || len(got.Data.Slots) == 0 {
		t.Fatalf("31-day range: got end_date %s and %d slots, want 2026-12-31 and some", got.Data.Metadata.EndDate, len(got.Data.Slots))
	}
}

func TestAvailableSlotsAcrossSantiagoDST(t *testing.T) {
	f := newFixture(t)
	bkExec(t, f, `UPDATE company SET max_advance_days = 0`)
	// Open every night into Sunday; Ben works Saturday 22:00–24:00 and Sunday 00:00–03:00.
	bkExec(t, f, `INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, 6, 1140, 1440), (1, 0, 0, 1440)`)
	bkExec(t, f, `INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (2, 1, 6, 1320, 1440), (2, 1, 0, 0, 180)`)

	// 2027-04-03 at 24:00 (-03) the clocks go back to 23:00 (-04): 23:00–23:45 happen twice.
	got := f.getSlots(t, "location_id=1&service_id=1&provider_id=2&start_date=2027-04-03")
	const sat = "2027-04-03"
	wantSlots(t, got.short(), []string{
		sat + " 22:00-22:30 Ben " + sat + "T22:00:00-03:00", sat + " 22:15-22:45 Ben " + sat + "T22:15:00-03:00",
		sat + " 22:30-23:00 Ben " + sat + "T22:30:00-03:00", sat + " 22:45-23:15 Ben " + sat + "T22:45:00-03:00",
		sat + " 23:00-23:30 Ben " + sat + "T23:00:00-03:00", sat + " 23:15-23:45 Ben " + sat + "T23:15:00-03:00",
		sat + " 23:30-23:00 Ben " + sat + "T23:30:00-03:00", sat + " 23:45-23:15 Ben " + sat + "T23:45:00-03:00",
		sat + " 23:00-23:30 Ben " + sat + "T23:00:00-04:00", sat + " 23:15-23:45 Ben " + sat + "T23:15:00-04:00",
		sat + " 23:30-00:00 Ben " + sat + "T23:30:00-04:00", sat + " 23:45-00:15 Ben " + sat + "T23:45:00-04:00",
	})
	if s := got.Data.Slots[7]; s.EndsAt != "2027-04-03T23:15:00-04:00" {
		t.Fatalf("the slot across the change ends at %s, want 2027-04-03T23:15:00-04:00 (30 real minutes)", s.EndsAt)
	}

	// 2027-09-05 starts at 01:00 (-03): 00:00–00:59 does not exist and is never offered.
	const sun = "2027-09-05"
	got = f.getSlots(t, "location_id=1&service_id=1&provider_id=2&start_date="+sun)
	wantSlots(t, got.short(), series(sun, "Ben", "-03:00", 60, 150, 15, 30))
}

func TestAvailableSlotsBadRequests(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, query  string
		status       int
		code, detail string
	}{
		{"no location", "start_date=2026-11-24", 400, "bad_request", "missing_location_id"},
		{"no date", "location_id=1", 400, "bad_request", "missing_start_date"},
		{"bad location", "location_id=abc&start_date=2026-11-24", 400, "bad_request", "invalid_location_id"},
		{"huge location", "location_id=99999999999999999999999&start_date=2026-11-24", 400, "bad_request", "invalid_location_id"},
		{"negative service", "location_id=1&service_id=-1&start_date=2026-11-24", 400, "bad_request", "invalid_service_id"},
		{"bad provider", "location_id=1&provider_id=1.5&start_date=2026-11-24", 400, "bad_request", "invalid_provider_id"},
		{"bad date", "location_id=1&start_date=2026-02-30", 400, "bad_request", "invalid_start_date"},
		{"date with time", "location_id=1&start_date=2026-11-24T10:00:00Z", 400, "bad_request", "invalid_start_date"},
		{"short date", "location_id=1&start_date=2026-1-4", 400, "bad_request", "invalid_start_date"},
		{"bad end date", "location_id=1&start_date=2026-11-24&end_date=tomorrow", 400, "bad_request", "invalid_end_date"},
		{"end before start", "location_id=1&start_date=2026-11-24&end_date=2026-11-23", 400, "bad_request", "end_date_before_start_date"},
		{"32 days", "location_id=1&start_date=2026-12-01&end_date=2027-01-01", 400, "bad_request", "date_range_exceeds_31_days"},
		{"years", "location_id=1&start_date=0001-01-01&end_date=9999-12-31", 400, "bad_request", "date_range_exceeds_31_days"},
		{"unknown location", "location_id=999&start_date=2026-11-24", 404, "location_not_found", ""},
		{"huge unknown location", "location_id=9223372036854775807&start_date=2026-11-24", 404, "location_not_found", ""},
		{"unknown service", "location_id=1&service_id=999&start_date=2026-11-24", 404, "not_found", "service"},
		{"unknown provider", "location_id=1&provider_id=999&start_date=2026-11-24", 404, "not_found", "provider"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := f.call("GET", "/v3/available_slots?"+c.query, nil)
			wantError(t, resp, raw, c.status, c.code, c.detail)
			validateResponse(t, "listAvailableSlots", resp, raw)
		})
	}
	// Far-away dates are valid; they simply have nothing to offer.
	for _, q := range []string{"start_date=0001-01-01", "start_date=9999-12-01&end_date=9999-12-31"} {
		if got := f.getSlots(t, "location_id=1&service_id=1&"+q); len(got.Data.Slots) != 0 {
			t.Fatalf("%s: got %d slots, want none", q, len(got.Data.Slots))
		}
	}
}

func TestAvailableSlotsScope(t *testing.T) {
	f := newFixture(t)
	resp, raw := f.callWithKey(f.newKey("clients:read"), "GET", "/v3/available_slots?location_id=1&start_date=2026-11-24", nil)
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
	resp, raw = f.callWithKey(f.newKey("bookings:read"), "GET", "/v3/available_slots?location_id=1&start_date=2026-11-24", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}

// bkExec runs SQL against the fixture's database (booking tests' own helper).
func bkExec(t *testing.T, f *fixture, query string, args ...any) {
	t.Helper()
	if _, err := f.db.Write.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
