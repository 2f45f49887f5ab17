package admin

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/activity"
	"frontdesk/app/locale"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Business: the company's name, currency and booking policies.

// defaultCompany mirrors the schema's column defaults, for an installation with no company
// row yet (no import, no demo): saving the form creates it.
var defaultCompany = db.Company{Currency: "USD", SlotStepMin: 15, MaxAdvanceDays: 90, CanEdit: true, CanCancel: true, PaymentExpiryMin: 15,
	Language: i18n.Default, Clock: locale.Clock24}

// intField is a whole-number policy and its accepted range. The schema sets the lower bounds;
// the upper ones only stop typing mistakes (a year of notice, ten years ahead, a week to pay).
type intField struct {
	name     string
	min, max int64
	get      func(*db.Company) *int64
}

var businessInts = []intField{
	{"slot_step_min", 5, 240, func(c *db.Company) *int64 { return &c.SlotStepMin }},
	{"min_notice_min", 0, 525600, func(c *db.Company) *int64 { return &c.MinNoticeMin }},
	{"max_advance_days", 0, 3650, func(c *db.Company) *int64 { return &c.MaxAdvanceDays }},
	{"edit_lock_min", 0, 525600, func(c *db.Company) *int64 { return &c.EditLockMin }},
	{"max_changes", 0, 1000, func(c *db.Company) *int64 { return &c.MaxChanges }},
	{"payment_expiry_min", 1, 10080, func(c *db.Company) *int64 { return &c.PaymentExpiryMin }},
}

func (a *Admin) showBusiness(w http.ResponseWriter, r *http.Request) {
	c, err := a.db.R.GetCompany(r.Context())
	if db.IsNotFound(err) {
		c, err = defaultCompany, nil
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.BusinessPage(a.page(r, translate(r, "business.title")), businessView(companyForm(c))))
}

func businessView(f *ui.Form) ui.BusinessView {
	return ui.BusinessView{Form: f, Languages: languageOptions()}
}

// languageOptions lists the languages there are catalogs for, each in its own name.
func languageOptions() []ui.Option {
	var opts []ui.Option
	for _, l := range i18n.Languages() {
		opts = append(opts, ui.Option{Value: l.Code, Label: l.Name})
	}
	return opts
}

func companyForm(c db.Company) *ui.Form {
	f := ui.NewForm(nil)
	f.Set("name", c.Name)
	f.Set("currency", c.Currency)
	f.Set("language", c.Language)
	f.Set("clock", c.Clock)
	for _, fld := range businessInts {
		f.Set(fld.name, strconv.FormatInt(*fld.get(&c), 10))
	}
	for name, on := range map[string]bool{"can_edit": c.CanEdit, "can_cancel": c.CanCancel, "online_payments": c.OnlinePayments} {
		if on {
			f.Set(name, "1")
		}
	}
	return f
}

// companyFromForm validates the form into c, recording problems in f.
func companyFromForm(r *http.Request, f *ui.Form, c *db.Company) {
	c.Name = f.Get("name")
	if c.Name == "" || len(c.Name) > 200 {
		f.SetError("name", translate(r, "business.name.error"))
	} else {
		checkName(r, f, "name", c.Name)
	}
	c.Currency = strings.ToUpper(f.Get("currency"))
	if !isCurrencyCode(c.Currency) {
		f.SetError("currency", translate(r, "business.currency.error"))
	}
	c.Language = f.Get("language")
	if !i18n.Supported(c.Language) {
		f.SetError("language", translate(r, "business.language.error"))
	}
	c.Clock = f.Get("clock")
	if c.Clock != locale.Clock24 && c.Clock != locale.Clock12 {
		f.SetError("clock", translate(r, "business.clock.error"))
	}
	for _, fld := range businessInts {
		n, err := strconv.ParseInt(f.Get(fld.name), 10, 64)
		if err != nil || n < fld.min || n > fld.max {
			f.SetError(fld.name, translate(r, "form.whole_number", "min", fld.min, "max", fld.max))
			continue
		}
		*fld.get(c) = n
	}
	c.CanEdit = f.Checked("can_edit", "1")
	c.CanCancel = f.Checked("can_cancel", "1")
	c.OnlinePayments = f.Checked("online_payments", "1")
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, ch := range s {
		if ch < 'A' || ch > 'Z' {
			return false
		}
	}
	return true
}

func (a *Admin) updateBusiness(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var c db.Company
	companyFromForm(r, f, &c)
	if !f.OK() {
		a.render(w, r, http.StatusUnprocessableEntity, ui.BusinessPage(a.page(r, translate(r, "business.title")), businessView(f)))
		return
	}
	if err := a.saveCompany(r.Context(), c); err != nil {
		a.renderError(w, r, err)
		return
	}
	// The confirmation is in the language just chosen, like the page it leads to.
	saved := locale.Business{Language: c.Language}.ForOwner(ownerLanguage(r.Context())).T("business.saved")
	a.flash(r.Context(), ui.FlashSuccess, saved)
	seeOther(w, r, "/settings/business")
}

// saveCompany updates the company row, creating it on an installation that has none.
func (a *Admin) saveCompany(ctx context.Context, c db.Company) error {
	ms := db.Millis(a.now())
	return a.db.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetCompany(ctx)
		if db.IsNotFound(err) {
			_, err = q.CreateCompany(ctx, db.CreateCompanyParams{
				Name: c.Name, Currency: c.Currency, SlotStepMin: c.SlotStepMin, MinNoticeMin: c.MinNoticeMin,
				MaxAdvanceDays: c.MaxAdvanceDays, CanEdit: c.CanEdit, CanCancel: c.CanCancel, EditLockMin: c.EditLockMin,
				MaxChanges: c.MaxChanges, OnlinePayments: c.OnlinePayments, PaymentExpiryMin: c.PaymentExpiryMin,
				Language: c.Language, Clock: c.Clock, CreatedAt: ms, UpdatedAt: ms,
			})
			if err != nil {
				return err
			}
			return recordSettings(ctx, q, a.now(), "business", activity.Created(c, "id", "created_at", "updated_at"))
		}
		if err != nil {
			return err
		}
		next := db.UpdateCompanyParams{
			Name: c.Name, Currency: c.Currency, SlotStepMin: c.SlotStepMin, MinNoticeMin: c.MinNoticeMin,
			MaxAdvanceDays: c.MaxAdvanceDays, CanEdit: c.CanEdit, CanCancel: c.CanCancel, EditLockMin: c.EditLockMin,
			MaxChanges: c.MaxChanges, OnlinePayments: c.OnlinePayments, PaymentExpiryMin: c.PaymentExpiryMin,
			Language: c.Language, Clock: c.Clock, UpdatedAt: ms, ID: old.ID,
		}
		if err := q.UpdateCompany(ctx, next); err != nil {
			return err
		}
		return recordSettings(ctx, q, a.now(), "business", activity.Diff(old, next, "id", "updated_at"))
	})
}
