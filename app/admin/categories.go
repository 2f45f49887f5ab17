package admin

import (
	"database/sql"
	"net/http"
	"strings"

	"frontdesk/app/catalog"
	"frontdesk/app/errpage"
	"frontdesk/app/webhook"
	"frontdesk/db"
	"frontdesk/ui"
)

// Catalog → Categories: the list with an "add" form, edit, and delete with confirmation.
// Renaming or deleting a category changes its services' service.updated payload, so each of
// them is announced (package catalog).

const categoriesPath = "/catalog/categories"

func (a *Admin) listCategories(w http.ResponseWriter, r *http.Request) {
	a.showCategories(w, r, http.StatusOK, formFrom(catalog.CategoryInput{Order: "0"}))
}

func (a *Admin) showCategories(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	rows, err := a.db.R.AdminListCategories(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.CategoriesView{Form: f}
	for _, c := range rows {
		v.Rows = append(v.Rows, ui.CategoryRow{ID: c.ID, Name: c.Name, Order: c.SortOrder, Services: c.ServiceCount})
	}
	a.render(w, r, status, ui.CategoriesPage(a.page(r, translate(r, "categories.title")), v))
}

func (a *Admin) createCategory(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.CategoryInput
	inputFrom(f, &in)
	if _, err := catalog.CreateCategory(r.Context(), a.db, in, a.now()); refused(r.Context(), f, err) {
		a.showCategories(w, r, invalid, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "categories.added", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, categoriesPath)
}

// findCategory loads the category named by the {id} URL parameter, or errpage.NotFound.
func (a *Admin) findCategory(r *http.Request) (db.Category, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return db.Category{}, err
	}
	c, err := a.db.R.GetCategory(r.Context(), id)
	if db.IsNotFound(err) {
		return db.Category{}, errpage.NotFound
	}
	return c, err
}

func (a *Admin) showCategory(w http.ResponseWriter, r *http.Request) {
	c, err := a.findCategory(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.CategoryPage(a.page(r, translate(r, "categories.edit")), c.ID, formFrom(catalog.EditCategory(c))))
}

func (a *Admin) updateCategory(w http.ResponseWriter, r *http.Request) {
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
	var in catalog.CategoryInput
	inputFrom(f, &in)
	saved, err := catalog.UpdateCategory(r.Context(), a.db, id, in, a.now())
	if refused(r.Context(), f, err) {
		a.render(w, r, invalid, ui.CategoryPage(a.page(r, translate(r, "categories.edit")), id, f))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	msg := translate(r, "categories.saved", "name", strings.TrimSpace(in.Name))
	if !saved.Changed {
		msg = translate(r, "catalog.unchanged", "name", strings.TrimSpace(in.Name))
	}
	if saved.Events > 0 && a.subscribed(r.Context(), webhook.ServiceUpdated) {
		msg += " " + translate(r, "categories.services_told", "count", saved.Events)
	}
	a.flash(r.Context(), ui.FlashSuccess, msg)
	seeOther(w, r, categoriesPath)
}

func (a *Admin) confirmDeleteCategory(w http.ResponseWriter, r *http.Request) {
	c, err := a.findCategory(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := a.db.R.ListCategoryServiceIDs(r.Context(), sql.NullInt64{Int64: c.ID, Valid: true})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	row := ui.CategoryRow{ID: c.ID, Name: c.Name, Order: c.SortOrder, Services: int64(len(services))}
	a.render(w, r, http.StatusOK, ui.DeleteCategoryPage(a.page(r, translate(r, "categories.delete.title")), row))
}

func (a *Admin) deleteCategory(w http.ResponseWriter, r *http.Request) {
	c, err := a.findCategory(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if _, err := catalog.DeleteCategory(r.Context(), a.db, c.ID, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "categories.deleted", "name", c.Name))
	seeOther(w, r, categoriesPath)
}
