package importer

import (
	"context"
	"fmt"
	"strings"

	"frontdesk/db"
)

// Products (docs/import.md, "products[]"). Their keys are remembered in import_product_keys
// (migration 00222) rather than import_keys, whose section list is fixed by a CHECK.

// Product bounds, those of the admin UI's product form, so an imported product can be saved
// there unchanged.
const (
	maxProductName        = 200
	maxProductSKU         = 64
	maxProductDescription = 2000
	maxProductStock       = 1_000_000_000
)

func (v *validator) product(i int) {
	pr := v.f.Products[i]
	path := at("products", i)
	v.text(at(path, "name"), pr.Name, true, maxProductName)
	row := v.productRow(path, pr)
	if row.SKU.Valid {
		sku := strings.ToLower(row.SKU.String)
		if first, dup := v.skus[sku]; dup {
			v.ps.add(at(path, "sku"), "%q is already the SKU of products[%d] (SKUs are unique, ignoring case)", row.SKU.String, first)
		} else {
			v.skus[sku] = i
		}
	}
	v.p.products = append(v.p.products, productPlan{key: pr.Key, row: row})
}

func (v *validator) productRow(path string, pr Product) db.ImportProductParams {
	row := db.ImportProductParams{Name: pr.Name, Active: orDefault(pr.Active, true)}
	row.SKU = v.optText(at(path, "sku"), pr.SKU, maxProductSKU)
	if row.SKU.Valid && row.SKU.String == "" {
		v.ps.add(at(path, "sku"), "is empty (leave it out for a product without a SKU)")
	}
	if pr.Price == "" {
		v.ps.add(at(path, "price"), `is required (a decimal string such as "15000" or "12.50")`)
	} else {
		row.PriceCents = v.amount(at(path, "price"), pr.Price)
	}
	if pr.Stock != nil {
		v.between(at(path, "stock"), *pr.Stock, 0, maxProductStock)
	}
	row.Stock = nullInt(pr.Stock)
	if pr.Description != nil && len([]rune(*pr.Description)) > maxProductDescription {
		v.ps.add(at(path, "description"), "is longer than %d characters", maxProductDescription)
	}
	row.Description = v.optLongText(at(path, "description"), pr.Description)
	return row
}

// checkProducts applies the product rules that depend on what is stored: keys not imported
// before, SKUs not taken by a stored product.
func checkProducts(ctx context.Context, q *db.Queries, p *plan, ps *problems) error {
	for i, pr := range p.products {
		prev, err := q.GetImportProductKey(ctx, pr.key)
		switch {
		case db.IsNotFound(err):
		case err != nil:
			return err
		default:
			ps.add(at(at("products", i), "key"), "%q was already imported on %s (product id %d); import only adds, so leave it out or give it a new key",
				pr.key, db.Time(prev.ImportedAt).Format("2006-01-02 15:04 MST"), prev.RecordID)
		}
		if !pr.row.SKU.Valid {
			continue
		}
		id, err := q.ProductIDBySKU(ctx, pr.row.SKU)
		switch {
		case db.IsNotFound(err):
		case err != nil:
			return err
		default:
			ps.add(at(at("products", i), "sku"), "%q is already the SKU of product id %d", pr.row.SKU.String, id)
		}
	}
	return nil
}

func (w *writer) writeProducts(p *plan) error {
	for i, pr := range p.products {
		row := pr.row
		row.CreatedAt, row.UpdatedAt = w.now, w.now
		id, err := w.q.ImportProduct(w.ctx, row)
		w.products = append(w.products, id)
		if err == nil {
			err = w.q.CreateImportProductKey(w.ctx, db.CreateImportProductKeyParams{Key: pr.key, RecordID: id, ImportedAt: w.now})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", at("products", i), err)
		}
	}
	return nil
}
