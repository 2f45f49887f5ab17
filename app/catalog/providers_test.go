package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

func mustLocation(t *testing.T, d *db.DB, name, zone string) int64 {
	t.Helper()
	in := NewLocationInput()
	in.Name, in.Timezone, in.CountryCode = name, zone, "CL"
	in.Hours[1] = "09:00-13:00, 14:00-19:00"
	id, err := CreateLocation(context.Background(), d, in, t0)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestLocationSaveKeepsWhatTheFormDoesNotShow(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	id := mustLocation(t, d, "Centro", "America/Santiago")
	// An import stored a picture and an address key the form has no field for.
	if _, err := d.Write.Exec(`UPDATE locations SET image_url = 'https://img.example/l.png',
		address_json = '{"route":"Old","postal_code":"8320000"}' WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	in, err := EditLocation(ctx, d.R, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.Route != "Old" || in.Hours[1] != "09:00-13:00, 14:00-19:00" || in.CountryCode != "CL" {
		t.Fatalf("form of the stored location: %+v", in)
	}
	in.Route, in.Locality, in.Phone, in.Latitude = "Av. Providencia", "Providencia", "+56 9 1234-5678", "-33.4255"
	in.Hours[0], in.Hours[1] = "10:00-14:00", ""
	if err := UpdateLocation(ctx, d, id, in, t0); err != nil {
		t.Fatal(err)
	}
	row, err := d.R.GetLocation(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var address map[string]string
	if err := json.Unmarshal([]byte(row.Location.AddressJSON), &address); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"route": "Av. Providencia", "locality": "Providencia", "country": "Chile", "postal_code": "8320000"}
	if !jsonEqual(address, want) {
		t.Errorf("got address %v, want %v", address, want)
	}
	if row.Location.Phone.String != "+56912345678" || row.Location.ImageURL.String != "https://img.example/l.png" || row.Location.Latitude.Float64 != -33.4255 {
		t.Errorf("stored location: %+v", row.Location)
	}
	hours, err := d.R.ListLocationHours(ctx, id)
	if err != nil || len(hours) != 1 || hours[0].DayID != 0 || hours[0].OpenMin != 600 || hours[0].CloseMin != 840 {
		t.Errorf("got hours %+v (%v), want Sunday 10:00-14:00 only", hours, err)
	}
}

func TestLocationValidation(t *testing.T) {
	d := openDB(t)
	tests := []struct {
		name  string
		edit  func(*LocationInput)
		field string
	}{
		{"no zone", func(in *LocationInput) { in.Timezone = "" }, "timezone"},
		{"unknown zone", func(in *LocationInput) { in.Timezone = "Mars/Base" }, "timezone"},
		{"the host's zone", func(in *LocationInput) { in.Timezone = "Local" }, "timezone"},
		{"no country", func(in *LocationInput) { in.CountryCode = "" }, "country_code"},
		{"unknown country", func(in *LocationInput) { in.CountryCode = "XX" }, "country_code"},
		{"phone without country code", func(in *LocationInput) { in.Phone = "912345678" }, "phone"},
		{"email", func(in *LocationInput) { in.Email = "not an email" }, "email"},
		{"latitude", func(in *LocationInput) { in.Latitude = "91" }, "latitude"},
		{"longitude", func(in *LocationInput) { in.Longitude = "east" }, "longitude"},
		{"overlapping hours", func(in *LocationInput) { in.Hours[3] = "09:00-13:00, 12:00-14:00" }, "hours_3"},
		{"breaks in opening hours", func(in *LocationInput) { in.Hours[6] = "09:00-13:00 (10:00-11:00)" }, "hours_6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := NewLocationInput()
			in.Name, in.Timezone, in.CountryCode = "Centro", "America/Santiago", "CL"
			tc.edit(&in)
			_, err := CreateLocation(context.Background(), d, in, t0)
			var inv *Invalid
			if !errors.As(err, &inv) || inv.Fields[tc.field] == "" {
				t.Fatalf("got %v, want a message for %s", err, tc.field)
			}
		})
	}
}

func TestClosures(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	id := mustLocation(t, d, "Centro", "America/Santiago")
	if err := AddClosure(ctx, d, id, ClosureInput{Date: "2026-12-25", Reason: "Christmas"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   ClosureInput
	}{
		{"twice", ClosureInput{Date: "2026-12-25"}},
		{"not a date", ClosureInput{Date: "25/12/2026"}},
		{"no such day", ClosureInput{Date: "2026-02-30"}},
	} {
		var inv *Invalid
		if err := AddClosure(ctx, d, id, tc.in); !errors.As(err, &inv) || inv.Fields["date"] == "" {
			t.Errorf("%s: got %v, want a message for date", tc.name, err)
		}
	}
	if err := AddClosure(ctx, d, 999, ClosureInput{Date: "2026-12-26"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("closing a missing location: got %v, want ErrNotFound", err)
	}
	closures, err := d.R.ListAllLocationClosures(ctx, id)
	if err != nil || len(closures) != 1 {
		t.Fatalf("got %d closures (%v), want 1", len(closures), err)
	}
	other := mustLocation(t, d, "Other", "America/Santiago")
	if err := RemoveClosure(ctx, d, other, closures[0].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing another location's closure: got %v, want ErrNotFound", err)
	}
	if err := RemoveClosure(ctx, d, id, closures[0].ID); err != nil {
		t.Errorf("removing the closure: %v", err)
	}
}

func TestProviderHoursAcrossLocations(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	centro := mustLocation(t, d, "Centro", "America/Santiago")
	norte := mustLocation(t, d, "Norte", "America/Santiago")
	remote := mustLocation(t, d, "Kathmandu", "Asia/Kathmandu")
	ids := func(ids ...int64) []string { return FormatIDs(ids) }
	base := func() ProviderInput {
		in := NewProviderInput()
		in.PublicName, in.MainLocation = "Camila", strconv.FormatInt(centro, 10)
		in.LocationIDs = ids(centro, norte, remote)
		in.Hours = map[int64][7]string{centro: {1: "09:00-13:00"}, norte: {1: "14:00-18:00 (15:00-15:30)"}}
		return in
	}

	tests := []struct {
		name    string
		edit    func(*ProviderInput)
		field   string // "" = saved
		warning string
	}{
		{"no overlap", func(*ProviderInput) {}, "", ""},
		{"overlap in the same zone", func(in *ProviderInput) { in.Hours[norte] = [7]string{1: "12:00-18:00"} }, HoursField(norte, 1), ""},
		{"overlap on the clock across zones", func(in *ProviderInput) { in.Hours[remote] = [7]string{1: "10:00-11:00"} }, "", "different time zones"},
		{"hours at a location not ticked", func(in *ProviderInput) { in.LocationIDs = ids(centro) }, HoursField(norte, 1), ""},
		{"break outside its shift", func(in *ProviderInput) { in.Hours[centro] = [7]string{2: "09:00-12:00 (11:30-12:30)"} }, HoursField(centro, 2), ""},
		{"no main location", func(in *ProviderInput) { in.MainLocation = "" }, "location_id", ""},
		{"no name", func(in *ProviderInput) { in.PublicName = "" }, "public_name", ""},
		{"unknown service", func(in *ProviderInput) { in.ServiceIDs = ids(42) }, "service_ids", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			tc.edit(&in)
			saved, err := CreateProvider(ctx, d, in, t0)
			if tc.field != "" {
				var inv *Invalid
				if !errors.As(err, &inv) || inv.Fields[tc.field] == "" {
					t.Fatalf("got %v, want a message for %s", err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(saved.Warnings, " "); !strings.Contains(got, tc.warning) || (tc.warning == "") != (got == "") {
				t.Errorf("got warnings %q, want %q", got, tc.warning)
			}
			for _, w := range saved.Warnings {
				if m := FieldMsg(w); m.Key != "catalog.warn.hours_overlap_zones" || len(m.Args) != 10 {
					t.Errorf("warning %q has catalog message %+v, want catalog.warn.hours_overlap_zones with five arguments", w, m)
				}
			}
		})
	}
}

func TestProviderRoundTripAndTimeOff(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	centro := mustLocation(t, d, "Centro", "America/Santiago")
	norte := mustLocation(t, d, "Norte", "America/Santiago")
	in := haircut(0)
	in.CategoryID = ""
	service, err := CreateService(ctx, d, in, t0)
	if err != nil {
		t.Fatal(err)
	}

	p := NewProviderInput()
	p.PublicName, p.MainLocation = "Camila", strconv.FormatInt(norte, 10)
	p.LocationIDs, p.ServiceIDs = FormatIDs([]int64{centro}), FormatIDs([]int64{service})
	p.Hours = map[int64][7]string{centro: {1: "09:00-18:00 (13:00-14:00, 16:00-16:15)", 2: "08:00-12:00, 15:00-20:00"}, norte: {6: "10:00-14:00"}}
	saved, err := CreateProvider(ctx, d, p, t0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EditProvider(ctx, d.R, saved.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(got.LocationIDs, FormatIDs([]int64{centro, norte})) || !jsonEqual(got.ServiceIDs, p.ServiceIDs) || !jsonEqual(got.Hours, p.Hours) {
		t.Errorf("form of the stored provider: %+v, want the main location among its locations and the hours as saved", got)
	}
	got.Hours[centro] = [7]string{}
	if _, err := UpdateProvider(ctx, d, saved.ID, got, t0); err != nil {
		t.Fatal(err)
	}
	again, err := EditProvider(ctx, d.R, saved.ID, nil)
	if err != nil || !jsonEqual(again.Hours, map[int64][7]string{norte: {6: "10:00-14:00"}}) {
		t.Errorf("after clearing Centro's hours got %v (%v)", again.Hours, err)
	}

	// Santiago springs forward at 2026-09-06 00:00 → 01:00 and falls back at 2026-04-05 00:00 → 23:00.
	timeOff := []struct {
		name  string
		in    TimeOffInput
		field string
	}{
		{"a skipped wall time", TimeOffInput{From: "2026-09-06T00:30", To: "2026-09-06T10:00"}, "from"},
		{"end before start", TimeOffInput{From: "2026-12-24T10:00", To: "2026-12-24T09:00"}, "to"},
		{"not a time", TimeOffInput{From: "tomorrow", To: "2026-12-24T09:00"}, "from"},
	}
	for _, tc := range timeOff {
		var inv *Invalid
		if err := AddTimeOff(ctx, d, saved.ID, tc.in); !errors.As(err, &inv) || inv.Fields[tc.field] == "" {
			t.Errorf("%s: got %v, want a message for %s", tc.name, err, tc.field)
		}
	}
	// A repeated hour: the start is its first instant, the end its second.
	if err := AddTimeOff(ctx, d, saved.ID, TimeOffInput{From: "2026-04-04T23:30", To: "2026-04-04T23:45", Reason: "Doctor"}); err != nil {
		t.Fatal(err)
	}
	offs, err := d.R.ListProviderTimeOff(ctx, saved.ID)
	if err != nil || len(offs) != 1 {
		t.Fatalf("got %d time off (%v), want 1", len(offs), err)
	}
	if got := time.Duration(offs[0].EndsAt-offs[0].StartsAt) * time.Millisecond; got != 75*time.Minute {
		t.Errorf("time off across the fall-back lasts %v, want 1h15m", got)
	}
	if err := RemoveTimeOff(ctx, d, saved.ID+1, offs[0].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing through another provider: got %v, want ErrNotFound", err)
	}
	if err := RemoveTimeOff(ctx, d, saved.ID, offs[0].ID); err != nil {
		t.Error(err)
	}
	if _, err := UpdateProvider(ctx, d, 999, got, t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("updating a missing provider: got %v, want ErrNotFound", err)
	}
}
