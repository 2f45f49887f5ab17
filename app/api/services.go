package api

import (
	"bytes"
	"context"
	"net/http"

	"frontdesk/app/resource"
	"frontdesk/db"
)

// listServices lists every service, active or not (each says which), so a mirror of the catalog
// can see a service being switched off; ?active=true narrows to bookable ones.
func (a *API) listServices(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	providerID, hasProvider, err := queryID(r, "provider_id")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	active, hasActive, err := queryBool(r, "active")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var providerFilter any
	if hasProvider {
		providerFilter = providerID
	}
	ctx := r.Context()
	activeFilter := boolParam(active, hasActive)
	total, err := a.db.R.CountServices(ctx, db.CountServicesParams{ProviderID: providerFilter, Active: activeFilter})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListServices(ctx, db.ListServicesParams{
		ProviderID: providerFilter, Active: activeFilter, Limit: p.Limit(), Offset: p.Offset(),
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.company(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	images, err := a.db.R.ListServiceImagesFor(ctx, idsOf(rows, func(s db.ListServicesRow) int64 { return s.Service.ID }))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	byService := groupBy(images, func(img db.ServiceImage) int64 { return img.ServiceID })
	out := resource.List[resource.ServiceIndex]{Data: make([]resource.ServiceIndex, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, s := range rows {
		row := resource.ServiceRow{Service: s.Service, CategoryName: s.CategoryName}
		out.Data = append(out.Data, resource.NewServiceIndex(row, company.ID, byService[s.Service.ID]))
	}
	writeJSON(w, http.StatusOK, out)
}

// serviceDetailKey names a service's encoded GET /v3/services/{id} answer in the catalog cache.
type serviceDetailKey struct{ id int64 }

// getService answers from the catalog cache while the catalog is unchanged: the answer is built
// from catalog tables only, so the cached bytes are exactly what a fresh read would send.
func (a *API) getService(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "service")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	key := serviceDetailKey{id}
	if v, ok := catalogVersion(r.Context()); ok {
		if body, ok := a.db.Catalog().Lookup(v, key); ok {
			writeRawJSON(w, http.StatusOK, body.([]byte))
			return
		}
	}
	// One bounded row: not worth the goroutines a cancellable context costs (see authenticate).
	row, err := a.db.R.GetServiceDetail(context.WithoutCancel(r.Context()), id)
	switch {
	case db.IsNotFound(err):
		err = notFound("service")
	case err == nil && row.CompanyID == 0:
		err = notFound("resource") // no business yet: what a missing company row always answered
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out, err := resource.NewServiceDetail(row)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var body bytes.Buffer
	if err := encodeJSON(&body, out); err != nil {
		a.writeError(w, r, err)
		return
	}
	// Kept under the version read in the same statement as the row, so it is exactly the
	// catalog of that version.
	a.db.Catalog().Store(row.CatalogVersion, key, body.Bytes())
	writeRawJSON(w, http.StatusOK, body.Bytes())
}
