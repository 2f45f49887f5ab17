package site

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/locale"
	"frontdesk/db"
)

// config is what every page needs from the settings and the catalog: read once per catalog
// version (the site's tables raise it: db/migrations/00270_booking_site.sql) and shared by
// every request until something changes.
type config struct {
	settings   db.SiteSettingsRow
	business   locale.Business
	company    string // the company's name, the site's name when no display name is set
	payments   bool   // the business takes online payments
	origins    []string
	locations  []*location // on the site and active, by name
	byID       map[int64]*location
	attributes []attribute
}

type location struct {
	id      int64
	name    string
	address string
	zone    *time.Location
	country string // ISO 3166-1 alpha-2: phone numbers typed without "+" are read as its
}

// attribute is a custom attribute the booking form asks.
type attribute struct {
	id        int64
	name      string
	datatype  string
	hint      string
	mandatory bool
	options   []string
}

// name is what the site calls the business.
func (c *config) name() string {
	if c.settings.DisplayName != "" {
		return c.settings.DisplayName
	}
	return c.company
}

type configKey struct{}

// loadConfig returns the site's configuration at the current catalog version.
func (s *Site) loadConfig(ctx context.Context) (*config, error) {
	v, err := s.db.CatalogVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog version: %w", err)
	}
	cache := s.db.Catalog()
	if c, ok := cache.Lookup(v, configKey{}); ok {
		return c.(*config), nil
	}
	c, err := readConfig(ctx, s.db.R)
	if err != nil {
		return nil, err
	}
	cache.Store(v, configKey{}, c)
	return c, nil
}

func readConfig(ctx context.Context, q *db.Queries) (*config, error) {
	c := &config{byID: map[int64]*location{}}
	var err error
	if c.settings, err = q.SiteSettings(ctx); err != nil {
		return nil, fmt.Errorf("site settings: %w", err)
	}
	if c.business, err = locale.Load(ctx, q); err != nil {
		return nil, fmt.Errorf("business locale: %w", err)
	}
	company, err := q.CartPaymentSettings(ctx)
	if err != nil && !db.IsNotFound(err) {
		return nil, fmt.Errorf("company: %w", err)
	}
	c.company, c.payments = company.Name, company.OnlinePayments
	c.origins = FrameOrigins(c.settings.FrameOrigins)

	locs, err := q.SiteLocations(ctx)
	if err != nil {
		return nil, fmt.Errorf("site locations: %w", err)
	}
	for _, l := range locs {
		if !l.Active || !l.Enabled {
			continue
		}
		zone, err := booking.LoadZone(l.Timezone)
		if err != nil {
			return nil, fmt.Errorf("location %d: %w", l.ID, err)
		}
		loc := &location{id: l.ID, name: l.Name, address: Address(l.AddressJSON), zone: zone, country: l.CountryCode}
		c.locations = append(c.locations, loc)
		c.byID[l.ID] = loc
	}

	attrs, err := q.SiteAskedAttributes(ctx)
	if err != nil {
		return nil, fmt.Errorf("site attributes: %w", err)
	}
	options, err := q.SiteAttributeOptions(ctx)
	if err != nil {
		return nil, fmt.Errorf("site attribute options: %w", err)
	}
	for _, a := range attrs {
		at := attribute{id: a.ID, name: a.Name, datatype: a.Datatype, hint: a.Description.String, mandatory: a.Mandatory}
		for _, o := range options {
			if o.AttributeID == a.ID {
				at.options = append(at.options, o.Label)
			}
		}
		c.attributes = append(c.attributes, at)
	}
	return c, nil
}

// Address formats a location's stored address (route, number, locality) on one line.
func Address(addressJSON string) string {
	var a map[string]string
	if json.Unmarshal([]byte(addressJSON), &a) != nil {
		return ""
	}
	street := strings.TrimSpace(a["route"] + " " + a["street_number"])
	var parts []string
	for _, p := range []string{street, a["locality"]} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// FrameOrigins reads the stored list of origins allowed to frame the site (one per line).
func FrameOrigins(stored string) []string {
	var out []string
	for _, line := range strings.Split(stored, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}
