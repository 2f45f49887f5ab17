package admin

import (
	"net/http"
	"strings"

	"frontdesk/app/catalog"
	"frontdesk/app/errpage"
	"frontdesk/db"
	"frontdesk/ui"
)

// Catalog → Custom attributes: the client fields the business defines (Connect v3 custom
// attribute templates). List, create, edit, delete with confirmation.

const attributesPath = "/catalog/custom-attributes"

func (a *Admin) listAttributes(w http.ResponseWriter, r *http.Request) {
	rows, err := a.db.R.ListCustomAttributes(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var out []ui.AttributeRow
	for _, row := range rows {
		c := row.CustomAttribute
		out = append(out, ui.AttributeRow{ID: c.ID, Name: c.Name, Datatype: c.Datatype, Group: row.GroupName.String,
			Mandatory: c.Mandatory, Order: c.SortOrder})
	}
	a.render(w, r, http.StatusOK, ui.AttributesPage(a.page(r, translate(r, "attributes.title")), out))
}

func (a *Admin) newAttribute(w http.ResponseWriter, r *http.Request) {
	a.showAttributeForm(w, r, http.StatusOK, 0, formFrom(catalog.NewAttributeInput()))
}

func (a *Admin) showAttribute(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in, err := catalog.EditAttribute(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showAttributeForm(w, r, http.StatusOK, id, formFrom(in))
}

func (a *Admin) createAttribute(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.AttributeInput
	inputFrom(f, &in)
	if _, err := catalog.CreateAttribute(r.Context(), a.db, in); refused(r.Context(), f, err) {
		a.showAttributeForm(w, r, invalid, 0, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "attributes.created", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, attributesPath)
}

func (a *Admin) updateAttribute(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.AttributeInput
	inputFrom(f, &in)
	if err := catalog.UpdateAttribute(r.Context(), a.db, id, in); refused(r.Context(), f, err) {
		a.showAttributeForm(w, r, invalid, id, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "attributes.saved", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, attributesPath)
}

// findAttribute loads the template named by the {id} URL parameter for the delete pages.
func (a *Admin) findAttribute(r *http.Request) (ui.AttributeRow, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return ui.AttributeRow{}, err
	}
	row, err := a.db.R.GetCustomAttribute(r.Context(), id)
	if db.IsNotFound(err) {
		return ui.AttributeRow{}, errpage.NotFound
	}
	if err != nil {
		return ui.AttributeRow{}, err
	}
	values, err := catalog.AttributeValueCount(r.Context(), a.db.R, id)
	c := row.CustomAttribute
	return ui.AttributeRow{ID: c.ID, Name: c.Name, Datatype: c.Datatype, Group: row.GroupName.String, Mandatory: c.Mandatory,
		Order: c.SortOrder, Values: values}, err
}

func (a *Admin) confirmDeleteAttribute(w http.ResponseWriter, r *http.Request) {
	row, err := a.findAttribute(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.DeleteAttributePage(a.page(r, translate(r, "attributes.delete.title")), row))
}

func (a *Admin) deleteAttribute(w http.ResponseWriter, r *http.Request) {
	row, err := a.findAttribute(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := catalog.DeleteAttribute(r.Context(), a.db, row.ID); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "attributes.deleted", "name", row.Name))
	seeOther(w, r, attributesPath)
}

// showAttributeForm renders the template form with the choices it offers.
func (a *Admin) showAttributeForm(w http.ResponseWriter, r *http.Request, status int, id int64, f *ui.Form) {
	groups, err := a.db.R.ListAttributeGroups(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.AttributeFormView{ID: id, Form: f}
	for _, d := range catalog.Datatypes {
		v.Datatypes = append(v.Datatypes, ui.Option{Value: d, Label: datatypeLabel(r, d)})
	}
	for _, g := range groups {
		v.Groups = append(v.Groups, g.Name)
	}
	title := translate(r, "attributes.new_title")
	if id != 0 {
		title = translate(r, "attributes.edit")
	}
	a.render(w, r, status, ui.AttributeFormPage(a.page(r, title), v))
}

// datatypeLabel names an attribute's datatype for the owner.
func datatypeLabel(r *http.Request, datatype string) string {
	switch datatype {
	case "textarea":
		return translate(r, "attributes.type.textarea")
	case "integer":
		return translate(r, "attributes.type.integer")
	case "float":
		return translate(r, "attributes.type.float")
	case "boolean":
		return translate(r, "attributes.type.boolean")
	case "date":
		return translate(r, "attributes.type.date")
	case "datetime":
		return translate(r, "attributes.type.datetime")
	case "categoric":
		return translate(r, "attributes.type.categoric")
	case "file":
		return translate(r, "attributes.type.file")
	}
	return translate(r, "attributes.type.text")
}
