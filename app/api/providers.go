package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"frontdesk/app/resource"
	"frontdesk/db"
)

// providerSorts are the sort_by values listProviders accepts; anything else is a 400 rather
// than a silently ignored parameter.
var providerSorts = map[string]bool{"": true, "id": true, "public_name": true, "created_at": true}

// listProviders filters by location_ids (providers working at any of them), service_ids
// (providers offering any of them), a case-insensitive partial public_name and active.
func (a *API) listProviders(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	filter, err := providerFilter(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	sortBy, err := queryValue(r, "sort_by")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	orderBy, err := queryValue(r, "order_by")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if !providerSorts[sortBy] {
		a.writeError(w, r, badRequest("invalid_sort_by"))
		return
	}
	if orderBy != "" && orderBy != "asc" && orderBy != "desc" {
		a.writeError(w, r, badRequest("invalid_order_by"))
		return
	}
	var descending int64
	if orderBy == "desc" {
		descending = 1
	}
	ctx := r.Context()
	total, err := a.db.R.CountProviders(ctx, filter)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListProviders(ctx, db.ListProvidersParams{
		SortBy: sortBy, Descending: descending,
		LocationIds: filter.LocationIds, ServiceIds: filter.ServiceIds, NameNeedle: filter.NameNeedle, Active: filter.Active,
		Limit: p.Limit(), Offset: p.Offset(),
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	base := make([]resource.ProviderRow, len(rows))
	for i, p := range rows {
		base[i] = resource.ProviderRow{ID: p.ID, PublicName: p.PublicName, Active: p.Active, OnlineBooking: p.OnlineBooking,
			LocationID: p.LocationID, HasHours: p.HasHours}
	}
	providers, err := a.loadProviders(ctx, base)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resource.List[resource.Provider]{Data: providers, Pagination: p.Pagination(total)})
}

func (a *API) getProvider(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "provider")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	p, err := a.db.R.GetProvider(ctx, id)
	if db.IsNotFound(err) {
		err = notFound("provider")
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	providers, err := a.loadProviders(ctx, []resource.ProviderRow{{ID: p.ID, PublicName: p.PublicName, Active: p.Active,
		OnlineBooking: p.OnlineBooking, LocationID: p.LocationID, HasHours: p.HasHours}})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, providers[0])
}

// providerFilter parses the list filters into the query's parameters.
func providerFilter(r *http.Request) (db.CountProvidersParams, error) {
	var f db.CountProvidersParams
	locations, err := queryIDs(r, "location_ids")
	if err != nil {
		return f, err
	}
	services, err := queryIDs(r, "service_ids")
	if err != nil {
		return f, err
	}
	name, err := queryValue(r, "public_name")
	if err != nil {
		return f, err
	}
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > 255 || strings.ContainsFunc(name, isControl) {
		return f, badRequest("invalid_public_name")
	}
	active, hasActive, err := queryBool(r, "active")
	if err != nil {
		return f, err
	}
	return db.CountProvidersParams{
		LocationIds: idsJSON(locations), ServiceIds: idsJSON(services),
		NameNeedle: asciiLower(name), Active: boolParam(active, hasActive),
	}, nil
}

// loadProviders completes a page of providers with their images and main-location hours, three
// queries for the whole page.
func (a *API) loadProviders(ctx context.Context, rows []resource.ProviderRow) ([]resource.Provider, error) {
	ids := idsOf(rows, func(p resource.ProviderRow) int64 { return p.ID })
	hours, err := a.db.R.ListProviderMainHoursFor(ctx, ids)
	if err != nil {
		return nil, err
	}
	breaks, err := a.db.R.ListProviderMainBreaksFor(ctx, ids)
	if err != nil {
		return nil, err
	}
	images, err := a.db.R.ListProviderImagesFor(ctx, ids)
	if err != nil {
		return nil, err
	}
	company, err := a.company(ctx)
	if err != nil {
		return nil, err
	}
	byProvider := map[int64]*resource.ProviderRow{}
	for i := range rows {
		byProvider[rows[i].ID] = &rows[i]
	}
	shiftOwner := map[int64]int64{}
	for _, h := range hours {
		byProvider[h.ProviderID].Hours = append(byProvider[h.ProviderID].Hours, h)
		shiftOwner[h.ID] = h.ProviderID
	}
	for _, b := range breaks {
		p := byProvider[shiftOwner[b.HoursID]]
		p.Breaks = append(p.Breaks, b)
	}
	for _, img := range images {
		byProvider[img.ProviderID].Images = append(byProvider[img.ProviderID].Images, img)
	}
	out := make([]resource.Provider, 0, len(rows))
	for _, p := range rows {
		out = append(out, resource.NewProvider(p, company.ID))
	}
	return out, nil
}

// idsJSON encodes an id filter for the queries' json_each; no ids is "[]", meaning no filter.
func idsJSON(ids []int64) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids) // []int64 always encodes
	return string(b)
}

// asciiLower lower-cases ASCII letters only, exactly as SQLite's lower() does, so a needle
// compares with lower(column) the same way whatever other letters it holds.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
