package api

import (
	"net/http"

	"frontdesk/app/resource"
	"frontdesk/db"
)

func (a *API) listLocations(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	active, hasActive, err := queryBool(r, "active")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	filter := boolParam(active, hasActive)
	total, err := a.db.R.CountLocations(ctx, filter)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListLocations(ctx, db.ListLocationsParams{Active: filter, Limit: p.Limit(), Offset: p.Offset()})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.company(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	hours, err := a.db.R.ListLocationHoursFor(ctx, idsOf(rows, func(l db.ListLocationsRow) int64 { return l.Location.ID }))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	byLocation := groupBy(hours, func(h db.LocationHour) int64 { return h.LocationID })
	out := resource.List[resource.Location]{Data: make([]resource.Location, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, l := range rows {
		out.Data = append(out.Data, resource.NewLocation(resource.LocationRow{
			Location: l.Location, CountryName: l.CountryName, Hours: byLocation[l.Location.ID],
		}, company, a.now()))
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) getLocation(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "location")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	l, err := a.db.R.GetLocation(ctx, id)
	if db.IsNotFound(err) {
		err = notFound("location")
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	hours, err := a.db.R.ListLocationHours(ctx, id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.company(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resource.NewLocation(resource.LocationRow{
		Location: l.Location, CountryName: l.CountryName, Hours: hours,
	}, company, a.now()))
}
