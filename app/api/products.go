package api

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"frontdesk/app/catalog"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// Products (docs/api.md, "Products"): an addition to Connect v3, read with the conventions of
// its other catalogue lists — paging, an active filter, a search — and the products:read scope.

// listProducts lists products by id, active or not (each says which); active=true|false narrows
// it and search keeps those whose name or SKU contains the text.
func (a *API) listProducts(w http.ResponseWriter, r *http.Request) {
	p, err := queryPaging(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var f catalog.ProductFilter
	active, hasActive, err := queryBool(r, "active")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if hasActive {
		f.Active = &active
	}
	f.Search = strings.TrimSpace(query(r).Get("search"))
	switch {
	case !utf8.ValidString(f.Search) || strings.ContainsFunc(f.Search, isControl):
		a.writeError(w, r, badRequest("invalid_search"))
		return
	case utf8.RuneCountInString(f.Search) > catalog.MaxProductSearch:
		a.writeError(w, r, badRequest("search_too_long"))
		return
	}
	ctx := r.Context()
	rows, total, err := catalog.ListProducts(ctx, a.db.R, f, p.Limit(), p.Offset())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.company(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := resource.List[resource.Product]{Data: make([]resource.Product, 0, len(rows)), Pagination: p.Pagination(total)}
	for _, row := range rows {
		out.Data = append(out.Data, resource.NewProduct(row, company.ID))
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) getProduct(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "product")
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx := r.Context()
	row, err := a.db.R.GetProduct(ctx, id)
	if db.IsNotFound(err) {
		a.writeError(w, r, notFound("product"))
		return
	} else if err != nil {
		a.writeError(w, r, err)
		return
	}
	company, err := a.company(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resource.NewProduct(row, company.ID))
}
