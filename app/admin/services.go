package admin

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"unicode/utf8"

	"frontdesk/app/catalog"
	"frontdesk/app/webhook"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Catalog → Services: the list with a search, and one form for creating and editing every
// field. Saving a change that receivers can see sends service.updated (package catalog).

const servicesPath = "/catalog/services"

func (a *Admin) listServices(w http.ResponseWriter, r *http.Request) {
	query := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(query) > 200 {
		query = string([]rune(query)[:200])
	}
	rows, err := a.db.R.AdminListServices(r.Context(), strings.ToLower(query))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ServicesView{Query: query}
	for _, s := range rows {
		v.Rows = append(v.Rows, ui.ServiceRow{
			ID: s.Service.ID, Name: s.Service.Name, Category: s.CategoryName.String,
			Price: i18n.From(r.Context()).Money(s.Service.PriceCents), Duration: s.Service.DurationMin,
			Active: s.Service.Active, OnlineBooking: s.Service.OnlineBooking,
		})
	}
	a.render(w, r, http.StatusOK, ui.ServicesPage(a.page(r, translate(r, "services.title")), v))
}

func (a *Admin) newService(w http.ResponseWriter, r *http.Request) {
	a.showServiceForm(w, r, http.StatusOK, 0, formFrom(catalog.NewServiceInput()))
}

func (a *Admin) showService(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in, err := catalog.EditService(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := formFrom(in)
	showAmounts(r, f, serviceAmounts...)
	a.showServiceForm(w, r, http.StatusOK, id, f)
}

func (a *Admin) createService(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.ServiceInput
	inputFrom(f, &in)
	readAmounts(r, f, map[string]*string{"price": &in.Price, "online_payment_amount": &in.PaymentAmount})
	if _, err := catalog.CreateService(r.Context(), a.db, in, a.now()); refused(r.Context(), f, err) {
		a.showServiceForm(w, r, invalid, 0, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "services.created", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, servicesPath)
}

func (a *Admin) updateService(w http.ResponseWriter, r *http.Request) {
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
	var in catalog.ServiceInput
	inputFrom(f, &in)
	readAmounts(r, f, map[string]*string{"price": &in.Price, "online_payment_amount": &in.PaymentAmount})
	saved, err := catalog.UpdateService(r.Context(), a.db, id, in, a.now())
	if refused(r.Context(), f, err) {
		a.showServiceForm(w, r, invalid, id, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	switch {
	case !saved.Changed:
		a.flash(r.Context(), ui.FlashInfo, translate(r, "catalog.unchanged", "name", strings.TrimSpace(in.Name)))
	case saved.Events > 0 && a.subscribed(r.Context(), webhook.ServiceUpdated):
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "services.saved_told", "name", strings.TrimSpace(in.Name)))
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "services.saved", "name", strings.TrimSpace(in.Name)))
	}
	seeOther(w, r, servicesPath)
}

// serviceAmounts are the service form's money fields, typed in the owner's language.
var serviceAmounts = []string{"price", "online_payment_amount"}

// showServiceForm renders the service form with the choices it offers.
func (a *Admin) showServiceForm(w http.ResponseWriter, r *http.Request, status int, id int64, f *ui.Form) {
	ctx := r.Context()
	categories, err := a.db.R.ListAllCategories(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	locations, err := a.db.R.ListAllLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	providers, err := a.db.R.AdminListProviders(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ServiceFormView{ID: id, Form: f}
	v.Categories = options(&ui.Option{Value: "", Label: translate(r, "services.no_category")}, len(categories), func(i int) (int64, string) {
		return categories[i].ID, categories[i].Name
	})
	v.Locations = options(&ui.Option{Value: "", Label: translate(r, "services.every_location")}, len(locations), func(i int) (int64, string) {
		return locations[i].ID, locations[i].Name
	})
	v.Providers = options(nil, len(providers), func(i int) (int64, string) {
		label := providers[i].PublicName
		if !providers[i].Active {
			label += " " + translate(r, "common.inactive_suffix")
		}
		return providers[i].ID, label
	})
	for _, m := range catalog.PaymentModes {
		v.PaymentModes = append(v.PaymentModes, ui.Option{Value: m, Label: paymentModeLabel(r, m)})
	}
	title := translate(r, "services.new")
	if id != 0 {
		title = translate(r, "services.edit")
	}
	a.render(w, r, status, ui.ServiceFormPage(a.page(r, title), v))
}

// paymentModeLabel names a service's online payment mode.
func paymentModeLabel(r *http.Request, mode string) string {
	switch mode {
	case catalog.PaymentOptional:
		return translate(r, "services.payment.optional")
	case catalog.PaymentMandatoryPartly:
		return translate(r, "services.payment.partly")
	case catalog.PaymentMandatoryTotal:
		return translate(r, "services.payment.total")
	}
	return translate(r, "services.payment.none")
}

// subscribed reports whether an active webhook listens to eventType, so a save message
// mentions webhooks only when one is told. A failed look-up says no (the message is all it
// decides).
func (a *Admin) subscribed(ctx context.Context, eventType string) bool {
	ok, err := webhook.Subscribed(ctx, a.db.R, eventType)
	if err != nil {
		a.log.WarnContext(ctx, "webhook subscriptions", slog.Any("err", err))
	}
	return ok
}
