package api

import (
	"net/http"

	"frontdesk/app/resource"
	"frontdesk/db"
)

func (a *API) listCategories(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	total, err := a.db.R.CountCategories(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	rows, err := a.db.R.ListCategories(ctx, db.ListCategoriesParams{Limit: p.Limit(), Offset: p.Offset()})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := resource.List[resource.Category]{Data: make([]resource.Category, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, c := range rows {
		out.Data = append(out.Data, resource.NewCategory(c))
	}
	writeJSON(w, http.StatusOK, out)
}
