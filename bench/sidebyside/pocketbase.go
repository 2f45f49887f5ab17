package main

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"time"
)

// pocketBase is a PocketBase server set up for the bench: request logs off, a bookings
// collection shaped like frontdesk's booking (what POST /v3/bookings carries, and the record's
// timestamps) with an index on (provider, start) as frontdesk's overlap check reads and one on
// (location, start) as its list by location reads, and the reads location's seeded bookings.
// The ids of the other records are plain numbers: PocketBase has no providers or clients here.
type pocketBase struct {
	url, token string
	readID     string // a seeded booking, for one record
}

// pbLocations are the numbers PocketBase's bookings carry for the two locations.
const (
	pbReads   = 1
	pbHall    = 2
	pbService = 1
)

func (p *pocketBase) auth() map[string]string { return map[string]string{"Authorization": p.token} }

func setupPocketBase(ctx context.Context, url, email, password string, reads int) (*pocketBase, error) {
	var login struct {
		Token string `json:"token"`
	}
	if err := call(ctx, "POST", url+"/api/collections/_superusers/auth-with-password", nil,
		obj{"identity": email, "password": password}, &login); err != nil {
		return nil, fmt.Errorf("PocketBase sign-in: %w", err)
	}
	p := &pocketBase{url: url, token: login.Token}
	// maxDays 0: no request log, as PocketBase is measured.
	if err := call(ctx, "PATCH", url+"/api/settings", p.auth(), obj{"logs": obj{"maxDays": 0}}, nil); err != nil {
		return nil, fmt.Errorf("PocketBase request log off: %w", err)
	}
	id := func(name string) obj { return obj{"name": name, "type": "number", "required": true, "onlyInt": true} }
	collection := obj{
		"name": "bookings", "type": "base",
		"fields": []obj{
			{"name": "start", "type": "date", "required": true},
			{"name": "end", "type": "date", "required": true},
			id("provider"), id("service"), id("location"), id("client"),
			{"name": "status", "type": "select", "required": true, "maxSelect": 1,
				"values": []string{"confirmed", "reserved", "attended", "no_show", "cancelled"}},
			{"name": "notes", "type": "text", "max": 10000},
			{"name": "created", "type": "autodate", "onCreate": true},
			{"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true},
		},
		"indexes": []string{
			"CREATE INDEX idx_bookings_provider_start ON bookings (provider, start)",
			"CREATE INDEX idx_bookings_location_start ON bookings (location, start)",
		},
	}
	if err := call(ctx, "POST", url+"/api/collections", p.auth(), collection, nil); err != nil {
		return nil, fmt.Errorf("PocketBase bookings collection: %w", err)
	}
	// The seeded bookings, as fixture seeds frontdesk's: ten providers, an hour apart from
	// 08:00, from a week ago on; eight at a time.
	n := time.Now().UTC()
	from := time.Date(n.Year(), n.Month(), n.Day()-7, 8, 0, 0, 0, time.UTC)
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		first error
	)
	ks := make(chan int)
	for range 8 {
		wg.Go(func() {
			for k := range ks {
				if err := p.seed(ctx, k, from); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for k := range reads {
		ks <- k
	}
	close(ks)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if p.readID == "" {
		return nil, fmt.Errorf("PocketBase: no seeded booking (--reads is 0)")
	}
	return p, nil
}

// seed writes seeded booking k; the first one is the record one record reads (written by one
// goroutine, read after they all ended).
func (p *pocketBase) seed(ctx context.Context, k int, from time.Time) error {
	slot := k / readProviders
	start := from.AddDate(0, 0, slot/12).Add(time.Duration(slot%12) * time.Hour)
	var rec struct {
		ID string `json:"id"`
	}
	err := call(ctx, "POST", p.url+"/api/collections/bookings/records", p.auth(),
		pbBooking(int64(k%readProviders+1), pbReads, int64(k%benchClients+1), start, "seeded by the side-by-side harness"), &rec)
	if err != nil {
		return fmt.Errorf("PocketBase seed: %w", err)
	}
	if k == 0 {
		p.readID = rec.ID
	}
	return nil
}

// pbBooking is a PocketBase bookings record; wrk.go's create script writes the same fields.
func pbBooking(provider, location, client int64, start time.Time, notes string) obj {
	return obj{"start": start.Format(time.RFC3339), "end": start.Add(stepMin * time.Minute).Format(time.RFC3339),
		"provider": provider, "service": pbService, "location": location, "client": client,
		"status": "confirmed", "notes": notes}
}
