package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/catalog"
	"frontdesk/app/money"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Catalog → Products: the list with a search and a status filter, and one form for creating and
// editing. Products are never deleted, only made inactive (docs/api.md, "Products"). Prices are
// typed and shown in the business's currency and language (i18n.Printer), and stored as the
// catalogue's decimal strings.

const (
	productsPath    = "/catalog/products"
	productsPerPage = 50
)

func (a *Admin) listProducts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	search := ui.NewForm(nil)
	text := searchText(q.Get("q"))
	if len([]rune(text)) > catalog.MaxProductSearch {
		text = string([]rune(text)[:catalog.MaxProductSearch])
	}
	search.Set("q", text)
	f := catalog.ProductFilter{Search: text}
	status := q.Get("status")
	switch status {
	case "active", "inactive":
		on := status == "active"
		f.Active = &on
	default:
		status = "all"
	}
	search.Set("status", status)
	page := pageNumber(q)
	rows, total, err := catalog.ListProducts(r.Context(), a.db.R, f, productsPerPage, (page-1)*productsPerPage)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	p := i18n.From(r.Context())
	v := ui.ProductsView{Search: search, Pager: listPager(r.URL, page, productsPerPage, total, translate(r, "pager.products", "count", total))}
	for _, pr := range rows {
		row := ui.ProductRow{ID: pr.ID, Name: pr.Name, SKU: pr.SKU.String, Price: p.Money(pr.PriceCents), Active: pr.Active}
		if pr.Stock.Valid {
			row.Stock = &pr.Stock.Int64
		}
		v.Rows = append(v.Rows, row)
	}
	a.render(w, r, http.StatusOK, ui.ProductsPage(a.page(r, translate(r, "products.title")), v))
}

func (a *Admin) newProduct(w http.ResponseWriter, r *http.Request) {
	a.showProductForm(w, r, http.StatusOK, 0, productForm(r, catalog.NewProductInput()))
}

func (a *Admin) showProduct(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in, err := catalog.EditProduct(r.Context(), a.db.R, id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showProductForm(w, r, http.StatusOK, id, productForm(r, in))
}

func (a *Admin) createProduct(w http.ResponseWriter, r *http.Request) {
	f, in, ok := a.productInput(w, r)
	if !ok {
		return
	}
	if f.OK() {
		_, err := catalog.CreateProduct(r.Context(), a.db, in, a.now())
		if !refusedMsgs(r, f, err) && err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	if !f.OK() {
		a.showProductForm(w, r, invalid, 0, f)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "products.created", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, productsPath)
}

func (a *Admin) updateProduct(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, in, ok := a.productInput(w, r)
	if !ok {
		return
	}
	changed := false
	if f.OK() {
		changed, err = catalog.UpdateProduct(r.Context(), a.db, id, in, a.now())
		if !refusedMsgs(r, f, err) && err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	if !f.OK() {
		a.showProductForm(w, r, invalid, id, f)
		return
	}
	name := strings.TrimSpace(in.Name)
	msg := translate(r, "products.saved", "name", name)
	if !changed {
		msg = translate(r, "products.unchanged", "name", name)
	}
	a.flash(r.Context(), ui.FlashSuccess, msg)
	seeOther(w, r, productsPath)
}

// productInput reads the submitted form. The price is read in the business's currency and
// language ("12.500" or "12,50" in Spanish) and handed to the catalogue as a decimal string.
func (a *Admin) productInput(w http.ResponseWriter, r *http.Request) (*ui.Form, catalog.ProductInput, bool) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return nil, catalog.ProductInput{}, false
	}
	var in catalog.ProductInput
	inputFrom(f, &in)
	cents, err := i18n.From(r.Context()).ParseMoney(in.Price)
	in.Price = money.Cents(cents).String()
	if err != nil {
		refusedMsgs(r, f, in.Validate()) // the other fields' problems too, in one round
		f.SetError("price", translate(r, "products.error.price"))
	}
	return f, in, true
}

// productForm shows a product's input, its price in the business's language.
func productForm(r *http.Request, in catalog.ProductInput) *ui.Form {
	f := formFrom(in)
	if c, err := money.Parse(in.Price); err == nil {
		f.Set("price", amountInput(i18n.From(r.Context()), int64(c)))
	}
	return f
}

// amountInput writes an amount as one types it in the language (no symbol, no grouping, the
// decimals only when there are some): what ParseMoney reads back.
func amountInput(p *i18n.Printer, cents int64) string {
	s := strconv.FormatInt(cents/100, 10)
	if frac := cents % 100; frac != 0 {
		s += p.T("_format.decimal") + strconv.FormatInt(100+frac, 10)[1:]
	}
	return s
}

// refusedMsgs copies a catalog.Invalid onto f, translated, and reports whether err was one.
func refusedMsgs(r *http.Request, f *ui.Form, err error) bool {
	var inv *catalog.Invalid
	if !errors.As(err, &inv) {
		return false
	}
	for field, msg := range inv.Fields {
		f.SetError(field, msg)
	}
	for field, m := range inv.Msgs {
		f.SetError(field, translate(r, m.Key, m.Args...))
	}
	return true
}

func (a *Admin) showProductForm(w http.ResponseWriter, r *http.Request, status int, id int64, f *ui.Form) {
	title := translate(r, "products.new")
	if id != 0 {
		title = translate(r, "products.edit")
	}
	a.render(w, r, status, ui.ProductFormPage(a.page(r, title), ui.ProductFormView{ID: id, Form: f}))
}
