package catalog

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/money"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Products are retail goods the business sells beside its services (docs/api.md, "Products"):
// read through GET /v3/products, sold as cart items of item_type "product". The owner manages
// them in the admin UI (Catalog → Products); import adds them too. A product is never deleted,
// only made inactive, so every sale that names one keeps pointing at it.

// Product bounds.
const (
	maxSKU = 64
	// MaxStock bounds a counted stock.
	MaxStock = 1_000_000_000
)

// ProductInput is a product as the owner types it. Stock "" means the business does not count
// it; Price is a decimal string.
type ProductInput struct {
	Name        string `form:"name"`
	SKU         string `form:"sku"`
	Price       string `form:"price"`
	Stock       string `form:"stock"`
	Description string `form:"description"`
	Active      bool   `form:"active"`
}

// NewProductInput is the form of a new product: active, stock not counted.
func NewProductInput() ProductInput { return ProductInput{Price: "0", Active: true} }

// product is a checked ProductInput, ready to store.
type product struct {
	Name        string
	SKU         sql.NullString
	PriceCents  int64
	Stock       sql.NullInt64
	Description sql.NullString
	Active      bool
}

// check validates the input on its own (the SKU's uniqueness is checked where it is written).
// Its messages are catalog keys (products.error.*), translated by the page.
func (in ProductInput) check() (product, error) {
	bad := map[string]i18n.Msg{}
	var out product
	out.Name = strings.TrimSpace(in.Name)
	switch {
	case out.Name == "" || utf8.RuneCountInString(out.Name) > MaxName:
		bad["name"] = i18n.M("products.error.name", "max", MaxName)
	case !utf8.ValidString(out.Name) || strings.ContainsFunc(out.Name, isControl):
		bad["name"] = i18n.M("products.error.control")
	}
	switch sku := strings.TrimSpace(in.SKU); {
	case utf8.RuneCountInString(sku) > maxSKU:
		bad["sku"] = i18n.M("products.error.sku", "max", maxSKU)
	case !utf8.ValidString(sku) || strings.ContainsFunc(sku, isControl):
		bad["sku"] = i18n.M("products.error.control")
	case sku != "":
		out.SKU = sql.NullString{String: sku, Valid: true}
	}
	if c, err := money.Parse(strings.TrimSpace(in.Price)); err != nil {
		bad["price"] = i18n.M("products.error.price")
	} else {
		out.PriceCents = int64(c)
	}
	if s := strings.TrimSpace(in.Stock); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > MaxStock {
			bad["stock"] = i18n.M("products.error.stock", "max", MaxStock)
		}
		out.Stock = sql.NullInt64{Int64: n, Valid: true}
	}
	d := strings.TrimSpace(strings.ReplaceAll(in.Description, "\r\n", "\n"))
	switch {
	case utf8.RuneCountInString(d) > maxDescription:
		bad["description"] = i18n.M("products.error.description", "max", maxDescription)
	case !utf8.ValidString(d) || strings.ContainsFunc(d, func(r rune) bool { return r != '\n' && r != '\t' && isControl(r) }):
		bad["description"] = i18n.M("products.error.control")
	case d != "":
		out.Description = sql.NullString{String: d, Valid: true}
	}
	out.Active = in.Active
	if len(bad) > 0 {
		return out, &Invalid{Msgs: bad}
	}
	return out, nil
}

// Validate checks the input as CreateProduct and UpdateProduct would, without writing; a form
// uses it to report every field at once when it refused one itself.
func (in ProductInput) Validate() error {
	_, err := in.check()
	return err
}

// errSKUTaken refuses a SKU another product has.
func errSKUTaken() error {
	return &Invalid{Msgs: map[string]i18n.Msg{"sku": i18n.M("products.error.sku_taken")}}
}

// checkSKU refuses a SKU another product has (ignoring case). The unique index products_sku is
// the last word; this names the field for the form.
func checkSKU(ctx context.Context, q *db.Queries, sku sql.NullString, self int64) error {
	if !sku.Valid {
		return nil
	}
	id, err := q.ProductIDBySKU(ctx, sku)
	switch {
	case db.IsNotFound(err):
		return nil
	case err != nil:
		return err
	case id != self:
		return errSKUTaken()
	}
	return nil
}

// skuTaken translates the unique index's refusal (a concurrent writer won).
func skuTaken(err error) error {
	if db.IsConstraint(err, "products.sku") || db.IsConstraint(err, "products_sku") {
		return errSKUTaken()
	}
	return err
}

// CreateProduct stores a new product and returns its id.
func CreateProduct(ctx context.Context, d *db.DB, in ProductInput, now time.Time) (int64, error) {
	pr, err := in.check()
	if err != nil {
		return 0, err
	}
	if err := checkSKU(ctx, d.R, pr.SKU, 0); err != nil {
		return 0, err
	}
	var id int64
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := checkSKU(ctx, q, pr.SKU, 0); err != nil {
			return err
		}
		ms := db.Millis(now)
		var err error
		row := db.CreateProductParams{
			Name: pr.Name, SKU: pr.SKU, PriceCents: pr.PriceCents, Active: pr.Active, Stock: pr.Stock,
			Description: pr.Description, CreatedAt: ms, UpdatedAt: ms,
		}
		if id, err = q.CreateProduct(ctx, row); err != nil {
			return skuTaken(err)
		}
		return record(ctx, q, now, "product.created", id, activity.Created(row, unrecorded...))
	})
	return id, err
}

// UpdateProduct saves every field of product id. It reports whether anything changed (an
// unchanged save writes nothing, and keeps updated_at).
func UpdateProduct(ctx context.Context, d *db.DB, id int64, in ProductInput, now time.Time) (changed bool, err error) {
	if _, err := d.R.GetProduct(ctx, id); db.IsNotFound(err) {
		return false, ErrNotFound
	} else if err != nil {
		return false, err
	}
	pr, err := in.check()
	if err != nil {
		return false, err
	}
	if err := checkSKU(ctx, d.R, pr.SKU, id); err != nil {
		return false, err
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetProduct(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if err := checkSKU(ctx, q, pr.SKU, id); err != nil {
			return err
		}
		next := db.UpdateProductParams{
			Name: pr.Name, SKU: pr.SKU, PriceCents: pr.PriceCents, Active: pr.Active, Stock: pr.Stock,
			Description: pr.Description, UpdatedAt: old.UpdatedAt, ID: id,
		}
		if next == productParams(old) {
			return nil
		}
		changed = true
		next.UpdatedAt = db.Millis(now)
		if err := skuTaken(q.UpdateProduct(ctx, next)); err != nil {
			return err
		}
		return record(ctx, q, now, "product.updated", id, activity.Diff(old, next, unrecorded...))
	})
	return changed, err
}

func productParams(p db.Product) db.UpdateProductParams {
	return db.UpdateProductParams{
		Name: p.Name, SKU: p.SKU, PriceCents: p.PriceCents, Active: p.Active, Stock: p.Stock,
		Description: p.Description, UpdatedAt: p.UpdatedAt, ID: p.ID,
	}
}

// EditProduct returns product id as its form shows it.
func EditProduct(ctx context.Context, q *db.Queries, id int64) (ProductInput, error) {
	p, err := q.GetProduct(ctx, id)
	if db.IsNotFound(err) {
		return ProductInput{}, ErrNotFound
	} else if err != nil {
		return ProductInput{}, err
	}
	in := ProductInput{Name: p.Name, SKU: p.SKU.String, Price: money.Cents(p.PriceCents).String(),
		Description: p.Description.String, Active: p.Active}
	if p.Stock.Valid {
		in.Stock = strconv.FormatInt(p.Stock.Int64, 10)
	}
	return in, nil
}

// ProductFilter narrows a product list: Active nil lists both; Search keeps products whose name
// or SKU contains it (ignoring case and, from three characters on, diacritics).
type ProductFilter struct {
	Active *bool
	Search string
}

// MaxProductSearch bounds a search text, in characters.
const MaxProductSearch = 100

// ListProducts returns one page of products by id, and how many match in all.
func ListProducts(ctx context.Context, q *db.Queries, f ProductFilter, limit, offset int64) ([]db.Product, int64, error) {
	active := sql.NullBool{}
	if f.Active != nil {
		active = sql.NullBool{Bool: *f.Active, Valid: true}
	}
	search := strings.TrimSpace(f.Search)
	var rows []db.Product
	var total int64
	var err error
	switch n := utf8.RuneCountInString(search); {
	case n == 0:
		if total, err = q.CountProducts(ctx, active); err == nil {
			rows, err = q.ListProducts(ctx, db.ListProductsParams{Active: active, Limit: limit, Offset: offset})
		}
	case n < 3:
		needle := strings.ToLower(search)
		if total, err = q.CountProductSearchShort(ctx, db.CountProductSearchShortParams{Needle: needle, Active: active}); err == nil {
			rows, err = q.SearchProductsShort(ctx, db.SearchProductsShortParams{Needle: needle, Active: active, Limit: limit, Offset: offset})
		}
	default:
		phrase := `"` + strings.ReplaceAll(search, `"`, `""`) + `"`
		if total, err = q.CountProductSearch(ctx, db.CountProductSearchParams{Phrase: phrase, Active: active}); err == nil {
			rows, err = q.SearchProducts(ctx, db.SearchProductsParams{Phrase: phrase, Active: active, Limit: limit, Offset: offset})
		}
	}
	return rows, total, err
}
