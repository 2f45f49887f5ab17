package api

import (
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
	company, err := a.db.R.GetCompany(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ids := make([]int64, len(rows))
	for i, s := range rows {
		ids[i] = s.Service.ID
	}
	images, err := a.db.R.ListServiceImagesFor(ctx, ids)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	byService := map[int64][]db.ServiceImage{}
	for _, img := range images {
		byService[img.ServiceID] = append(byService[img.ServiceID], img)
	}
	out := resource.List[resource.ServiceIndex]{Data: make([]resource.ServiceIndex, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, s := range rows {
		row := resource.ServiceRow{Service: s.Service, CategoryName: s.CategoryName}
		out.Data = append(out.Data, resource.NewServiceIndex(row, company.ID, byService[s.Service.ID]))
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) getService(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "service")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	s, err := a.db.R.GetService(ctx, id)
	if db.IsNotFound(err) {
		err = notFound("service")
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	images, err := a.db.R.ListServiceImagesFor(ctx, []int64{id})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	providerRows, err := a.db.R.ListServiceActiveProviders(ctx, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.db.R.GetCompany(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	providers := make([]resource.Ref, 0, len(providerRows))
	for _, p := range providerRows {
		providers = append(providers, resource.Ref{ID: p.ID, Name: p.PublicName})
	}
	row := resource.ServiceRow{Service: s.Service, CategoryName: s.CategoryName}
	writeJSON(w, http.StatusOK, resource.NewServiceDetail(row, company.ID, images, providers))
}
