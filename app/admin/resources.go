package admin

import (
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/catalog"
	"frontdesk/app/errpage"
	"frontdesk/db"
	"frontdesk/ui"
)

// Catalog → Resources: the rooms and equipment of each location with their quantity (list with
// an "add" form, edit, delete with confirmation), and per service the resources it requires
// (docs/visits.md, "Resources").

const resourcesPath = "/catalog/resources"

func (a *Admin) listResources(w http.ResponseWriter, r *http.Request) {
	a.showResources(w, r, http.StatusOK, formFrom(catalog.ResourceInput{Quantity: "1"}))
}

func (a *Admin) showResources(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	rows, err := a.db.R.ListResources(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	locs, err := a.db.R.AdminBookingLocations(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ResourcesView{Form: f}
	for _, l := range locs {
		v.Locations = append(v.Locations, ui.Option{Value: strconv.FormatInt(l.ID, 10), Label: l.Name})
	}
	for _, x := range rows {
		v.Rows = append(v.Rows, ui.ResourceRow{ID: x.ID, Location: x.LocationName, Name: x.Name, Kind: x.Kind, Quantity: x.Quantity})
	}
	a.render(w, r, status, ui.ResourcesPage(a.page(r, translate(r, "resources.title")), v))
}

func (a *Admin) createResource(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.ResourceInput
	inputFrom(f, &in)
	if _, err := catalog.CreateResource(r.Context(), a.db, in, a.now()); refused(r.Context(), f, err) {
		a.showResources(w, r, invalid, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "resources.added", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, resourcesPath)
}

// findResource loads the resource named by the {id} URL parameter and its location's name, or
// errpage.NotFound.
func (a *Admin) findResource(r *http.Request) (db.Resource, string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return db.Resource{}, "", err
	}
	x, err := a.db.R.GetResource(r.Context(), id)
	if db.IsNotFound(err) {
		return db.Resource{}, "", errpage.NotFound
	} else if err != nil {
		return db.Resource{}, "", err
	}
	loc, err := a.db.R.ScheduleLocation(r.Context(), x.LocationID)
	return x, loc.Name, err
}

func (a *Admin) showResource(w http.ResponseWriter, r *http.Request) {
	x, loc, err := a.findResource(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.ResourcePage(a.page(r, translate(r, "resources.edit")), x.ID, loc, formFrom(catalog.EditResource(x))))
}

func (a *Admin) updateResource(w http.ResponseWriter, r *http.Request) {
	x, loc, err := a.findResource(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.ResourceInput
	inputFrom(f, &in)
	saved, err := catalog.UpdateResource(r.Context(), a.db, x.ID, in, a.now())
	if refused(r.Context(), f, err) {
		a.render(w, r, invalid, ui.ResourcePage(a.page(r, translate(r, "resources.edit")), x.ID, loc, f))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	msg := translate(r, "resources.saved", "name", strings.TrimSpace(in.Name))
	if !saved.Changed {
		msg = translate(r, "catalog.unchanged", "name", strings.TrimSpace(in.Name))
	}
	a.flash(r.Context(), ui.FlashSuccess, msg)
	seeOther(w, r, resourcesPath)
}

func (a *Admin) confirmDeleteResource(w http.ResponseWriter, r *http.Request) {
	x, loc, err := a.findResource(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	row := ui.ResourceRow{ID: x.ID, Location: loc, Name: x.Name, Kind: x.Kind, Quantity: x.Quantity}
	a.render(w, r, http.StatusOK, ui.DeleteResourcePage(a.page(r, translate(r, "resources.delete.title")), row))
}

func (a *Admin) deleteResource(w http.ResponseWriter, r *http.Request) {
	x, _, err := a.findResource(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := catalog.DeleteResource(r.Context(), a.db, x.ID, a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "resources.deleted", "name", x.Name))
	seeOther(w, r, resourcesPath)
}

// serviceResourceChoices are every resource as a choice, named with its location.
func (a *Admin) serviceResourceChoices(r *http.Request) ([]ui.Option, error) {
	rows, err := a.db.R.ListResources(r.Context())
	if err != nil {
		return nil, err
	}
	out := make([]ui.Option, 0, len(rows))
	for _, x := range rows {
		out = append(out, ui.Option{Value: strconv.FormatInt(x.ID, 10), Label: x.LocationName + " · " + x.Name + " (" + strconv.FormatInt(x.Quantity, 10) + ")"})
	}
	return out, nil
}

func (a *Admin) showServiceResources(w http.ResponseWriter, r *http.Request) {
	a.serviceResources(w, r, http.StatusOK, nil)
}

// serviceResources renders the page of the {id} service, with f (nil: what it requires now).
func (a *Admin) serviceResources(w http.ResponseWriter, r *http.Request, status int, f *ui.Form) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	svc, err := a.db.R.GetService(r.Context(), id)
	if db.IsNotFound(err) {
		a.renderError(w, r, errpage.NotFound)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	options, err := a.serviceResourceChoices(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if f == nil {
		ids, err := a.db.R.ServiceResourceIDs(r.Context(), id)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v := map[string][]string{"resources": {}}
		for _, x := range ids {
			v["resources"] = append(v["resources"], strconv.FormatInt(x, 10))
		}
		f = ui.NewForm(v)
	}
	a.render(w, r, status, ui.ServiceResourcesPage(a.page(r, translate(r, "resources.service.title", "service", svc.Service.Name)), id, svc.Service.Name, options, f))
}

func (a *Admin) saveServiceResources(w http.ResponseWriter, r *http.Request) {
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
	if _, err := catalog.SetServiceResources(r.Context(), a.db, id, r.PostForm["resources"], a.now()); refused(r.Context(), f, err) {
		a.serviceResources(w, r, invalid, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "resources.service.saved"))
	seeOther(w, r, "/catalog/services/"+strconv.FormatInt(id, 10))
}
