package api

import (
	"net/http"

	"frontdesk/app/resource"
	"frontdesk/db"
)

// listCustomAttributeTemplates answers a bare JSON array, as the reference has it: templates are
// few and a client needs all of them to render a form.
func (a *API) listCustomAttributeTemplates(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rows, err := a.db.R.ListCustomAttributes(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	options, err := a.db.R.ListAttributeOptions(ctx)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	byAttribute := groupBy(options, func(o db.AttributeOption) int64 { return o.AttributeID })
	out := make([]resource.CustomAttributeTemplate, 0, len(rows))
	for _, t := range rows {
		out = append(out, resource.NewCustomAttributeTemplate(t.CustomAttribute, t.GroupName, t.GroupOrder, byAttribute[t.CustomAttribute.ID]))
	}
	writeJSON(w, http.StatusOK, out)
}
