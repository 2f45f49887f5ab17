package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/db"
)

var listLocationsTool = toolSpec{
	name: "list_locations", title: "List locations", readOnly: true, idempotent: true, scope: "locations:read",
	description: "Lists the business's open locations with address, time zone, today's local date and " +
		"opening hours. Start here when you do not know the location_id.",
	input: object(nil,
		stringArg("query", "Optional words to match in the location's name or address (e.g. a neighbourhood).", maxQuery),
	),
}

const maxQuery = 100

type listLocationsArgs struct {
	Query string `json:"query"`
}

type locationOut struct {
	ID           int64      `json:"id"`
	Name         string     `json:"name"`
	Address      string     `json:"address,omitempty"`
	Phone        string     `json:"phone,omitempty"`
	Email        string     `json:"email,omitempty"`
	TimeZone     string     `json:"time_zone"`
	UTCOffsetNow string     `json:"utc_offset_now"`
	Today        string     `json:"today"`
	TodayWeekday string     `json:"today_weekday"`
	OpeningHours []dayHours `json:"opening_hours"`
	ClosedOn     []string   `json:"closed_on,omitempty"` // closures in the next 60 days
}

// dayHours is one weekday's opening ranges ("09:00-13:00", "14:00-19:00"), empty when closed.
type dayHours struct {
	Weekday string   `json:"weekday"`
	Open    []string `json:"open"`
}

func (s *Server) listLocations(ctx context.Context, _ call, in *listLocationsArgs) (answer, error) {
	q, err := text("query", in.Query, maxQuery, false)
	if err != nil {
		return answer{}, err
	}
	locs, err := s.locations(ctx)
	if err != nil {
		return answer{}, err
	}
	words := strings.Fields(fold(q))
	out := []locationOut{}
	for _, l := range locs {
		if matchesAll(fold(l.Name+" "+l.Address), words) {
			out = append(out, l)
		}
	}
	var b strings.Builder
	if len(out) == 0 {
		fmt.Fprintf(&b, "No location matches %q. Locations: %s.", q, names(locs, func(l locationOut) string { return l.Name }))
	}
	for _, l := range out {
		fmt.Fprintf(&b, "%d %s — %s. Time zone %s (now UTC%s), today is %s %s.\n  Hours: %s\n",
			l.ID, l.Name, cmp.Or(l.Address, "no address on file"), l.TimeZone, l.UTCOffsetNow, l.TodayWeekday, l.Today, hoursText(l.OpeningHours))
		if len(l.ClosedOn) > 0 {
			fmt.Fprintf(&b, "  Closed on: %s\n", strings.Join(l.ClosedOn, ", "))
		}
	}
	return answer{data: map[string]any{"locations": out}, text: strings.TrimSpace(b.String())}, nil
}

// locations reads every active location as the tools show it.
func (s *Server) locations(ctx context.Context) ([]locationOut, error) {
	rows, err := s.db.R.MCPLocations(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	hours, err := s.db.R.ListLocationHoursFor(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := make([]locationOut, 0, len(rows))
	for _, r := range rows {
		zone, err := booking.LoadZone(r.Timezone)
		if err != nil {
			return nil, err
		}
		local := now.In(zone)
		l := locationOut{
			ID: r.ID, Name: r.Name, Address: formatAddress(r.AddressJSON), Phone: r.Phone.String, Email: r.Email,
			TimeZone: r.Timezone, UTCOffsetNow: local.Format("-07:00"),
			Today: booking.DateOf(local).String(), TodayWeekday: local.Weekday().String(),
		}
		for wd := time.Monday; ; wd = (wd + 1) % 7 {
			d := dayHours{Weekday: wd.String(), Open: []string{}}
			for _, h := range hours {
				if h.LocationID == r.ID && time.Weekday(h.DayID) == wd {
					d.Open = append(d.Open, resource.WallClock(h.OpenMin)+"-"+resource.WallClock(h.CloseMin))
				}
			}
			l.OpeningHours = append(l.OpeningHours, d)
			if wd == time.Sunday {
				break
			}
		}
		closures, err := s.db.R.ScheduleAllClosures(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		today := booking.DateOf(local)
		first, last := today.String(), today.AddDays(60).String()
		for _, c := range closures {
			if c >= first && c <= last {
				l.ClosedOn = append(l.ClosedOn, c)
			}
		}
		out = append(out, l)
	}
	return out, nil
}

func hoursText(days []dayHours) string {
	parts := make([]string, 0, len(days))
	for _, d := range days {
		h := "closed"
		if len(d.Open) > 0 {
			h = strings.Join(d.Open, ", ")
		}
		parts = append(parts, d.Weekday[:3]+" "+h)
	}
	return strings.Join(parts, "; ")
}

// formatAddress writes a stored address (Google-style components) on one line.
func formatAddress(raw string) string {
	var a map[string]string
	if json.Unmarshal([]byte(raw), &a) != nil || len(a) == 0 {
		return ""
	}
	street := strings.TrimSpace(a["route"] + " " + a["street_number"])
	parts := []string{}
	for _, p := range []string{street, a["sublocality"], a["locality"], a["administrative_area_level_1"], a["country"]} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 { // other keys: their values in key order
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if a[k] != "" {
				parts = append(parts, a[k])
			}
		}
	}
	return strings.Join(parts, ", ")
}

var listServicesTool = toolSpec{
	name: "list_services", title: "List services", readOnly: true, idempotent: true, scope: "services:read",
	description: "Lists the services customers can book, with duration, price, who offers them and where. " +
		"Search by what the customer says: query matches the name, category and keywords " +
		"(case and accents ignored, every word must match; e.g. \"corte\", \"hair colour\").",
	input: object(nil,
		stringArg("query", "Optional words describing the service.", maxQuery),
		idArg("location_id", "Optional: only services offered at this location."),
	),
}

type listServicesArgs struct {
	Query      string `json:"query"`
	LocationID *int64 `json:"location_id"`
}

type serviceOut struct {
	ID              int64     `json:"id"`
	Name            string    `json:"name"`
	Category        string    `json:"category,omitempty"`
	Description     string    `json:"description,omitempty"`
	DurationMinutes int64     `json:"duration_minutes"`
	Price           string    `json:"price"`
	Currency        string    `json:"currency"`
	Keywords        []string  `json:"keywords"`
	Locations       []nameRef `json:"locations"`
	Providers       []nameRef `json:"providers"`
}

type nameRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func (s *Server) listServices(ctx context.Context, _ call, in *listServicesArgs) (answer, error) {
	q, err := text("query", in.Query, maxQuery, false)
	if err != nil {
		return answer{}, err
	}
	if err := optionalID("location_id", in.LocationID); err != nil {
		return answer{}, err
	}
	all, err := s.services(ctx)
	if err != nil {
		return answer{}, err
	}
	if in.LocationID != nil {
		if _, err := s.db.R.ScheduleLocation(ctx, *in.LocationID); db.IsNotFound(err) {
			return answer{}, notFound("location_id", "no such location; call list_locations")
		} else if err != nil {
			return answer{}, err
		}
	}
	words := strings.Fields(fold(q))
	out := []serviceOut{}
	for _, sv := range all {
		if in.LocationID != nil && !slices.ContainsFunc(sv.Locations, func(l nameRef) bool { return l.ID == *in.LocationID }) {
			continue
		}
		if matchesAll(fold(sv.Name+" "+sv.Category+" "+strings.Join(sv.Keywords, " ")), words) {
			out = append(out, sv)
		}
	}
	var b strings.Builder
	if len(out) == 0 {
		fmt.Fprintf(&b, "No bookable service matches %q", q)
		if in.LocationID != nil {
			fmt.Fprintf(&b, " at location %d", *in.LocationID)
		}
		fmt.Fprintf(&b, ". Services customers can book: %s.", names(all, func(s serviceOut) string { return s.Name }))
	}
	for _, sv := range out {
		fmt.Fprintf(&b, "%d %s (%d min, %s %s)", sv.ID, sv.Name, sv.DurationMinutes, sv.Price, sv.Currency)
		if sv.Category != "" {
			fmt.Fprintf(&b, " — %s", sv.Category)
		}
		fmt.Fprintf(&b, "; at %s; with %s\n", names(sv.Locations, func(r nameRef) string { return r.Name }),
			names(sv.Providers, func(r nameRef) string { return r.Name }))
	}
	return answer{data: map[string]any{"services": out}, text: strings.TrimSpace(b.String())}, nil
}

// services reads every service a customer can book with who offers it where: active, bookable
// online, offered by an active provider bookable online at an active location.
func (s *Server) services(ctx context.Context) ([]serviceOut, error) {
	rows, err := s.db.R.MCPServices(ctx)
	if err != nil {
		return nil, err
	}
	offers, err := s.db.R.MCPServiceProviders(ctx)
	if err != nil {
		return nil, err
	}
	locs, err := s.db.R.MCPLocations(ctx)
	if err != nil {
		return nil, err
	}
	company, err := s.db.R.GetCompany(ctx)
	if err != nil && !db.IsNotFound(err) {
		return nil, err
	}
	locName := map[int64]string{}
	for _, l := range locs {
		locName[l.ID] = l.Name
	}
	out := []serviceOut{}
	for _, r := range rows {
		price := r.PriceCents
		if r.HasDiscount && r.DiscountBp.Valid && r.DiscountBp.Int64 > 0 {
			price -= int64(money.Cents(price).Percent(r.DiscountBp.Int64))
		}
		sv := serviceOut{
			ID: r.ID, Name: r.Name, Category: r.CategoryName.String, Description: clip(r.Description.String, 300),
			DurationMinutes: r.DurationMin, Price: money.Cents(price).String(), Currency: company.Currency,
			Keywords: []string{}, Locations: []nameRef{}, Providers: []nameRef{},
		}
		_ = json.Unmarshal([]byte(r.KeywordsJSON), &sv.Keywords) // written only by our own validated code
		for _, o := range offers {
			if o.ServiceID != r.ID {
				continue
			}
			if !slices.ContainsFunc(sv.Providers, func(p nameRef) bool { return p.ID == o.ProviderID }) {
				sv.Providers = append(sv.Providers, nameRef{o.ProviderID, o.PublicName})
			}
			if !slices.ContainsFunc(sv.Locations, func(l nameRef) bool { return l.ID == o.LocationID }) {
				sv.Locations = append(sv.Locations, nameRef{o.LocationID, locName[o.LocationID]})
			}
		}
		if len(sv.Providers) == 0 {
			continue // nobody can be booked for it
		}
		slices.SortFunc(sv.Locations, func(a, b nameRef) int { return cmp.Compare(a.ID, b.ID) })
		out = append(out, sv)
	}
	return out, nil
}

func matchesAll(haystack string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(haystack, w) {
			return false
		}
	}
	return true
}

func names[T any](xs []T, name func(T) string) string {
	if len(xs) == 0 {
		return "none"
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return strings.Join(out, ", ")
}
