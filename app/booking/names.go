package booking

import (
	"context"
	"fmt"

	"frontdesk/db"
)

// A page of bookings shows, for each booking, the names of its status, service, provider and
// location, the location's zone and the company id. Joining them into every row (BookingViews)
// cost more than the rest of the row with modernc SQLite, so List reads the rows alone
// (BookingPageRows) and takes the names from the catalog cache, where they stay valid until the
// catalog changes (db.CatalogCache).

type (
	companyKey  struct{}
	statusesKey struct{}
	nameKey     struct {
		kind byte // 's'ervice, 'p'rovider, 'l'ocation
		id   int64
	}
)

type locationName struct{ name, timezone string }

// cached returns the value under key at catalog version v, loading and storing it on a miss.
func cached[T any](c *db.CatalogCache, v int64, key any, load func() (T, error)) (T, error) {
	if x, ok := c.Lookup(v, key); ok {
		return x.(T), nil
	}
	x, err := load()
	if err != nil {
		return x, err
	}
	c.Store(v, key, x)
	return x, nil
}

// cachedNames returns the cached values of one kind for ids, loading the missing ones at once.
// An id load does not find is absent from the result.
func cachedNames[T any](c *db.CatalogCache, v int64, kind byte, ids []int64, load func([]int64) (map[int64]T, error)) (map[int64]T, error) {
	out := make(map[int64]T, len(ids))
	var missing []int64
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if asked[id] {
			continue
		}
		asked[id] = true
		if x, ok := c.Lookup(v, nameKey{kind, id}); ok {
			out[id] = x.(T)
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	loaded, err := load(missing)
	if err != nil {
		return nil, err
	}
	for id, x := range loaded {
		c.Store(v, nameKey{kind, id}, x)
		out[id] = x
	}
	return out, nil
}

// pageViews completes a page of rows with their names at catalog version v. A row whose status,
// service, provider or location does not exist is left out, as BookingViews' joins leave it
// out.
func pageViews(ctx context.Context, d *db.DB, v int64, rows []db.BookingPageRowsRow) ([]View, error) {
	c := d.Catalog()
	company, err := cached(c, v, companyKey{}, func() (int64, error) { return d.R.BookingCompanyID(ctx) })
	if err != nil {
		return nil, fmt.Errorf("company: %w", err)
	}
	statuses, err := cached(c, v, statusesKey{}, func() (map[int64]db.BookingStatus, error) {
		all, err := d.R.BookingStatuses(ctx)
		byID := make(map[int64]db.BookingStatus, len(all))
		for _, s := range all {
			byID[s.ID] = s
		}
		return byID, err
	})
	if err != nil {
		return nil, fmt.Errorf("booking statuses: %w", err)
	}
	var serviceIDs, providerIDs, locationIDs []int64
	for _, r := range rows {
		serviceIDs = append(serviceIDs, r.Booking.ServiceID)
		providerIDs = append(providerIDs, r.Booking.ProviderID)
		locationIDs = append(locationIDs, r.Booking.LocationID)
	}
	services, err := cachedNames(c, v, 's', serviceIDs, func(ids []int64) (map[int64]string, error) {
		found, err := d.R.BookingServiceNames(ctx, ids)
		out := make(map[int64]string, len(found))
		for _, s := range found {
			out[s.ID] = s.Name
		}
		return out, err
	})
	if err != nil {
		return nil, fmt.Errorf("service names: %w", err)
	}
	providers, err := cachedNames(c, v, 'p', providerIDs, func(ids []int64) (map[int64]string, error) {
		found, err := d.R.BookingProviderNames(ctx, ids)
		out := make(map[int64]string, len(found))
		for _, p := range found {
			out[p.ID] = p.PublicName
		}
		return out, err
	})
	if err != nil {
		return nil, fmt.Errorf("provider names: %w", err)
	}
	locations, err := cachedNames(c, v, 'l', locationIDs, func(ids []int64) (map[int64]locationName, error) {
		found, err := d.R.BookingLocationNames(ctx, ids)
		out := make(map[int64]locationName, len(found))
		for _, l := range found {
			out[l.ID] = locationName{l.Name, l.Timezone}
		}
		return out, err
	})
	if err != nil {
		return nil, fmt.Errorf("location names: %w", err)
	}

	views := make([]View, 0, len(rows))
	for _, r := range rows {
		b := r.Booking
		status, okStatus := statuses[b.StatusID]
		service, okService := services[b.ServiceID]
		provider, okProvider := providers[b.ProviderID]
		location, okLocation := locations[b.LocationID]
		if !okStatus || !okService || !okProvider || !okLocation {
			continue
		}
		views = append(views, View{
			Booking:    b,
			StatusName: status.Name, StatusInternalName: status.InternalName, StatusDescription: status.Description,
			ServiceName: service, ProviderName: provider,
			LocationName: location.name, LocationTimezone: location.timezone,
			SaleStatus: r.SaleStatus, SaleCartID: r.SaleCartID,
			CompanyID: company,
		})
	}
	return views, nil
}
