package main

import (
	"context"
	"fmt"
	"strings"
)

// frontdesk is the running appliance with the bench business imported (fixture.go), its
// records' ids found through /v3 as any integration finds them.
type frontdesk struct {
	url, key      string
	reads, hall   int64 // locations
	service       int64
	hallProviders []int64
	clients       []int64
	readID        int64 // a seeded booking, for one record
}

func (f *frontdesk) auth() map[string]string {
	return map[string]string{"Authorization": "Bearer " + f.key}
}

type named struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	PublicName string `json:"public_name"`
}

// all reads every page of a /v3 list.
func (f *frontdesk) all(ctx context.Context, path string) ([]named, error) {
	var out []named
	for page := 1; ; page++ {
		var resp struct {
			Data []named `json:"data"`
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		if err := call(ctx, "GET", fmt.Sprintf("%s%s%sper_page=100&page=%d", f.url, path, sep, page), f.auth(), nil, &resp); err != nil {
			return nil, err
		}
		if len(resp.Data) == 0 {
			return out, nil
		}
		out = append(out, resp.Data...)
	}
}

func findFrontdesk(ctx context.Context, url, key string) (*frontdesk, error) {
	f := &frontdesk{url: url, key: key}
	locs, err := f.all(ctx, "/v3/locations")
	if err != nil {
		return nil, err
	}
	for _, l := range locs {
		switch l.Name {
		case readsName:
			f.reads = l.ID
		case hallName:
			f.hall = l.ID
		}
	}
	services, err := f.all(ctx, "/v3/services")
	if err != nil {
		return nil, err
	}
	for _, s := range services {
		if s.Name == serviceName {
			f.service = s.ID
		}
	}
	providers, err := f.all(ctx, "/v3/providers")
	if err != nil {
		return nil, err
	}
	for _, p := range providers {
		if strings.HasPrefix(p.PublicName, hallPrefix) {
			f.hallProviders = append(f.hallProviders, p.ID)
		}
	}
	clients, err := f.all(ctx, "/v3/clients")
	if err != nil {
		return nil, err
	}
	for _, c := range clients {
		f.clients = append(f.clients, c.ID)
	}
	if f.reads == 0 || f.hall == 0 || f.service == 0 || len(f.hallProviders) == 0 || len(f.clients) == 0 {
		return nil, fmt.Errorf("frontdesk at %s does not hold the bench business (locations %q and %q, service %q, providers %q…, clients): import bench/sidebyside's fixture first",
			url, readsName, hallName, serviceName, hallPrefix)
	}
	var first struct {
		Data []named `json:"data"`
	}
	if err := call(ctx, "GET", fmt.Sprintf("%s/v3/bookings?location_id=%d&per_page=1", url, f.reads), f.auth(), nil, &first); err != nil {
		return nil, err
	}
	if len(first.Data) == 0 {
		return nil, fmt.Errorf("frontdesk: no seeded booking at %q (--reads is 0)", readsName)
	}
	f.readID = first.Data[0].ID
	return f, nil
}
