package site

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"frontdesk/app/money"
	"frontdesk/app/payments"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// listLocations is step 1: the locations on the site. With one there is nothing to choose.
func (s *Site) listLocations(w http.ResponseWriter, r *http.Request) {
	c := configFrom(r.Context())
	if len(c.locations) == 1 {
		http.Redirect(w, r, locationPath(c.locations[0].id), http.StatusFound)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteLocationsView{}
	for _, l := range c.locations {
		v.Locations = append(v.Locations, ui.SiteLocation{Name: l.name, Address: l.address, URL: locationPath(l.id)})
	}
	page := s.page(r, p.T("site.locations.title"))
	if len(v.Locations) == 0 {
		s.render(w, r, http.StatusOK, ui.SiteMessage(page, ui.SiteMessageView{Message: p.T("site.locations.none")}))
		return
	}
	s.render(w, r, http.StatusOK, ui.SiteLocations(page, v))
}

// listServices is step 2: the location's services by category, searchable by name and keywords.
func (s *Site) listServices(w http.ResponseWriter, r *http.Request) {
	c := configFrom(r.Context())
	loc, err := s.locationParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	services, err := s.services(r.Context(), loc.id)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	query := strings.TrimSpace(r.URL.Query().Get("q"))
	v := ui.SiteServicesView{Location: loc.name, Query: query, Action: locationPath(loc.id), Total: len(services)}
	words := strings.Fields(fold(query))
	var group *ui.SiteServiceGroup
	groupID := int64(-1)
	for _, svc := range services {
		if !matches(svc.search, words) {
			continue
		}
		if group == nil || svc.categoryID != groupID {
			v.Groups = append(v.Groups, ui.SiteServiceGroup{Name: svc.category})
			group, groupID = &v.Groups[len(v.Groups)-1], svc.categoryID
		}
		group.Services = append(group.Services, s.serviceView(p, c, loc, svc))
	}
	if n := len(slices.DeleteFunc(slices.Clone(services), func(svc service) bool {
		return svc.class() || payments.MustPayOnline(svc.mode)
	})); n > 1 {
		v.VisitURL = visitPath(loc.id)
	}
	// Clients may become members on their own: the sign-up page exists.
	if offers, err := s.online.OffersMemberships(r.Context(), s.db.R); err != nil {
		s.renderError(w, r, err)
		return
	} else if offers {
		v.MembershipURL = "/membership/join" // app/customer
	}
	page := s.page(r, p.T("site.services.title"))
	if len(c.locations) > 1 {
		page.Back = "/book"
	}
	s.render(w, r, http.StatusOK, ui.SiteServices(page, v))
}

// listProviders is step 3: anyone available, or one of the people who give the service there.
// With only one person there is nothing to choose.
func (s *Site) listProviders(w http.ResponseWriter, r *http.Request) {
	c := configFrom(r.Context())
	loc, svc, err := s.serviceParam(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if svc.class() { // every teacher's sessions on one list, each session naming its teacher
		http.Redirect(w, r, timesPath(loc.id, svc.id, 0, nil), http.StatusFound)
		return
	}
	provs, err := s.db.R.SiteServiceProviders(r.Context(), db.SiteServiceProvidersParams{LocationID: loc.id, ServiceID: svc.id})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if len(provs) == 1 {
		http.Redirect(w, r, timesPath(loc.id, svc.id, provs[0].ID, nil), http.StatusFound)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteProvidersView{Service: s.serviceView(p, c, loc, svc)}
	v.Choices = append(v.Choices, ui.SiteChoice{Any: true, URL: timesPath(loc.id, svc.id, 0, nil)})
	for _, pr := range provs {
		v.Choices = append(v.Choices, ui.SiteChoice{Name: pr.PublicName, URL: timesPath(loc.id, svc.id, pr.ID, nil)})
	}
	page := s.page(r, p.T("site.providers.title"))
	page.Back = locationPath(loc.id)
	s.render(w, r, http.StatusOK, ui.SiteProviders(page, v))
}

// service is a service as the site offers it.
type service struct {
	id                    int64
	name, description     string
	durationMin           int64
	priceCents, listCents int64
	mode                  string // online payment mode
	deposit               int64  // online payment amount, 0 for none
	categoryID            int64  // 0 for none
	category              string
	categoryOrder         int64
	search                string // folded name and keywords
	capacity              int64  // above 1: a class, offered as its sessions (docs/classes.md)
	sessionCount          int64  // above 1: sold in packs of that many sessions
}

// class reports whether the service is a class: booked as a seat in one of its sessions.
func (svc service) class() bool { return svc.capacity > 1 }

type servicesKey struct{ location int64 }

// services returns what location offers online, by category order and name, from the catalog
// cache. A service whose online payment is mandatory is left out while the business takes no
// online payments: the site could not book it.
func (s *Site) services(ctx context.Context, locationID int64) ([]service, error) {
	v, err := s.db.CatalogVersion(ctx)
	if err != nil {
		return nil, err
	}
	cache := s.db.Catalog()
	if x, ok := cache.Lookup(v, servicesKey{locationID}); ok {
		return x.([]service), nil
	}
	rows, err := s.db.R.SiteServices(ctx, locationID)
	if err != nil {
		return nil, fmt.Errorf("site services: %w", err)
	}
	c := configFrom(ctx)
	out := make([]service, 0, len(rows))
	for _, row := range rows {
		if payments.MustPayOnline(row.OnlinePaymentMode) && (c == nil || !c.payments) {
			continue
		}
		var keywords []string
		_ = json.Unmarshal([]byte(row.KeywordsJSON), &keywords) // written only by validated code
		svc := service{
			id: row.ID, name: row.Name, description: row.Description.String, durationMin: row.DurationMin,
			priceCents: row.PriceCents, listCents: row.PriceCents, mode: row.OnlinePaymentMode,
			deposit: row.OnlinePaymentCents.Int64, categoryID: row.CategoryID.Int64, category: row.CategoryName,
			categoryOrder: row.CategoryOrder, search: fold(row.Name + " " + strings.Join(keywords, " ")),
			capacity: row.Capacity, sessionCount: row.SessionCount,
		}
		if row.HasDiscount && row.DiscountBp.Valid && row.DiscountBp.Int64 > 0 {
			svc.priceCents -= int64(money.Cents(row.PriceCents).Percent(row.DiscountBp.Int64))
		}
		out = append(out, svc)
	}
	// Categories in the owner's order, services without one last; by name within.
	slices.SortStableFunc(out, func(a, b service) int {
		if (a.categoryID == 0) != (b.categoryID == 0) {
			if a.categoryID == 0 {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.categoryOrder, b.categoryOrder), cmp.Compare(a.categoryID, b.categoryID))
	})
	cache.Store(v, servicesKey{locationID}, out)
	return out, nil
}

// serviceView is a service as the pages show it.
func (s *Site) serviceView(p *i18n.Printer, c *config, loc *location, svc service) ui.SiteService {
	v := ui.SiteService{
		Name: svc.name, Description: svc.description, Duration: duration(p, svc.durationMin),
		Price: price(p, svc.priceCents), URL: servicePath(loc.id, svc.id), Search: svc.search,
	}
	if svc.listCents != svc.priceCents {
		v.ListPrice = p.Money(svc.listCents)
	}
	v.PayOnline = payNote(p, svc)
	return v
}

// payNote says what booking svc asks online, "" for nothing.
func payNote(p *i18n.Printer, svc service) string {
	switch svc.mode {
	case payments.PaymentTotal:
		return p.T("site.pay.total", "amount", p.Money(svc.priceCents))
	case payments.PaymentPartial:
		if svc.deposit > 0 && svc.deposit < svc.priceCents {
			return p.T("site.pay.deposit", "amount", p.Money(svc.deposit))
		}
		return p.T("site.pay.total", "amount", p.Money(svc.priceCents))
	}
	return ""
}

func duration(p *i18n.Printer, minutes int64) string {
	h, m := minutes/60, minutes%60
	switch {
	case h == 0:
		return p.T("site.duration.minutes", "minutes", m)
	case m == 0:
		return p.T("site.duration.hours", "hours", h)
	}
	return p.T("site.duration.hours_minutes", "hours", h, "minutes", m)
}

func price(p *i18n.Printer, cents int64) string {
	if cents == 0 {
		return p.T("site.price.free")
	}
	return p.Money(cents)
}

// fold is s as the search compares it: lower case, without accents ("Depilación" → "depilacion").
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return out
}

// matches reports whether every word of a search appears in text.
func matches(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// locationParam is the location in the path, if the site offers it.
func (s *Site) locationParam(r *http.Request) (*location, error) {
	id, err := pathID(r, "location")
	if err != nil {
		return nil, err
	}
	loc := configFrom(r.Context()).byID[id]
	if loc == nil {
		return nil, errNotFound
	}
	return loc, nil
}

// serviceParam is the location and service in the path, if the site offers them together.
func (s *Site) serviceParam(r *http.Request) (*location, service, error) {
	loc, err := s.locationParam(r)
	if err != nil {
		return nil, service{}, err
	}
	id, err := pathID(r, "service")
	if err != nil {
		return nil, service{}, err
	}
	services, err := s.services(r.Context(), loc.id)
	if err != nil {
		return nil, service{}, err
	}
	i := slices.IndexFunc(services, func(svc service) bool { return svc.id == id })
	if i < 0 {
		return nil, service{}, errNotFound
	}
	return loc, services[i], nil
}

// pathID reads a positive integer URL parameter; anything else is a 404.
func pathID(r *http.Request, name string) (int64, error) {
	raw := chi.URLParam(r, name)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != raw {
		return 0, errNotFound
	}
	return id, nil
}

func locationPath(id int64) string { return "/book/" + strconv.FormatInt(id, 10) }

func servicePath(location, service int64) string {
	return locationPath(location) + "/" + strconv.FormatInt(service, 10)
}

// timesPath is the date and time step for a provider (0: anyone available) with extra query.
func timesPath(location, service, provider int64, extra url.Values) string {
	q := url.Values{"provider": {strconv.FormatInt(provider, 10)}}
	for k, v := range extra {
		q[k] = v
	}
	return servicePath(location, service) + "/times?" + q.Encode()
}
