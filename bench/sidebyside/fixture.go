package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// The bench business, the same for both servers that store bookings:
//
//   - a "reads" location whose readProviders hold the seeded bookings that one record and the
//     list of 30 read (the list asks for the location's first page);
//   - a "hall" location open around the clock whose hallProviders take the creates, every one
//     at a (provider, start) no other request asks for (grid), so none can conflict;
//   - one service of one slot step, and benchClients clients with an email address each.
//
// Everything is in UTC, a zone without daylight saving time, so every grid time exists once.
const (
	names         = "Side by side"
	readsName     = names + " reads"
	hallName      = names + " hall"
	serviceName   = names + " visit"
	hallPrefix    = "Hall provider "
	readProviders = 10
	benchClients  = 50
	stepMin       = 15
	gridDays      = 365
)

var allWeek = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// fixtureCmd writes frontdesk's import file: `frontdesk import` loads it into an empty data
// directory (docs/import.md).
func fixtureCmd(args []string) error {
	fs := newFlags("fixture")
	hall := fs.Int("providers", 50, "providers at the hall, who take the creates")
	reads := fs.Int("reads", 1000, "bookings seeded at the reads location")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("fixture [flags] FILE")
	}
	b, err := json.MarshalIndent(fixture(*hall, *reads, time.Now().UTC()), "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(fs.Arg(0), b, 0o644)
}

type obj = map[string]any

func fixture(hall, reads int, now time.Time) obj {
	hours := func() []obj {
		var out []obj
		for _, d := range allWeek {
			out = append(out, obj{"day": d, "open": "00:00", "close": "24:00"})
		}
		return out
	}
	shifts := func(loc string) []obj {
		var out []obj
		for _, d := range allWeek {
			out = append(out, obj{"location": loc, "day": d, "open": "00:00", "close": "24:00"})
		}
		return out
	}
	us := obj{"code": "US", "name": "United States"}
	var providers, clients, bookings []obj
	for i := range readProviders {
		providers = append(providers, obj{"key": fmt.Sprintf("r%d", i+1), "public_name": fmt.Sprintf("Reads provider %d", i+1),
			"locations": []string{"reads"}, "services": []string{"visit"}, "hours": shifts("reads")})
	}
	for i := range hall {
		providers = append(providers, obj{"key": fmt.Sprintf("h%d", i+1), "public_name": fmt.Sprintf("%s%d", hallPrefix, i+1),
			"locations": []string{"hall"}, "services": []string{"visit"}, "hours": shifts("hall")})
	}
	for i := range benchClients {
		clients = append(clients, obj{"key": fmt.Sprintf("c%d", i+1), "first_name": fmt.Sprintf("Client %d", i+1),
			"last_name": "Load", "email": fmt.Sprintf("client-%d@example.com", i+1)})
	}
	// The seeded bookings: round the read providers, then every hour of the day from 08:00,
	// then the days from a week ago on.
	first := time.Date(now.Year(), now.Month(), now.Day()-7, 8, 0, 0, 0, time.UTC)
	for k := range reads {
		slot := k / readProviders
		start := first.AddDate(0, 0, slot/12).Add(time.Duration(slot%12) * time.Hour)
		bookings = append(bookings, obj{"key": fmt.Sprintf("b%d", k+1), "location": "reads", "service": "visit",
			"provider": fmt.Sprintf("r%d", k%readProviders+1), "client": fmt.Sprintf("c%d", k%benchClients+1),
			"start": start.Format(time.RFC3339), "notes": "seeded by the side-by-side harness"})
	}
	return obj{
		"company": obj{"name": names, "currency": "USD", "slot_step_min": stepMin, "min_notice_min": 0, "max_advance_days": 0},
		"locations": []obj{
			{"key": "reads", "name": readsName, "timezone": "UTC", "country": us, "hours": hours()},
			{"key": "hall", "name": hallName, "timezone": "UTC", "country": us, "hours": hours()},
		},
		"categories": []obj{{"key": "bench", "name": names}},
		"services":   []obj{{"key": "visit", "name": serviceName, "category": "bench", "price": "20.00", "duration": stepMin}},
		"providers":  providers,
		"clients":    clients,
		"bookings":   bookings,
	}
}

// grid hands out create times: request k gets a (provider, start) no other request gets. It
// goes round the providers, then round the days, and only then to the next time of day, so
// each provider's calendar fills up as a real one does. The wrk script (wrk.go) computes the
// same with the same numbers.
type grid struct {
	providers []int64
	first     time.Time // UTC midnight of the first day
}

func newGrid(providers []int64, now time.Time) grid {
	n := now.UTC()
	return grid{providers: providers, first: time.Date(n.Year(), n.Month(), n.Day()+2, 0, 0, 0, 0, time.UTC)}
}

// capacity is how many requests the grid can take.
func (g grid) capacity() int64 { return int64(len(g.providers)) * gridDays * (1440 / stepMin) }

func (g grid) at(k int64) (provider int64, start time.Time) {
	p := int64(len(g.providers))
	slot := k / p
	day, index := slot%gridDays, slot/gridDays
	return g.providers[k%p], g.first.AddDate(0, 0, int(day)).Add(time.Duration(index*stepMin) * time.Minute)
}
