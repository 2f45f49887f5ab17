package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"frontdesk/db"
)

func TestProductCreateAndUpdate(t *testing.T) {
	d := openDB(t)
	ctx := context.Background()
	id, err := CreateProduct(ctx, d, ProductInput{Name: "  Argan oil 50 ml ", SKU: "ARG-50", Price: "12.50", Stock: "7", Description: "Cold-pressed.", Active: true}, t0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.R.GetProduct(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Argan oil 50 ml" || p.SKU.String != "ARG-50" || p.PriceCents != 1250 || !p.Stock.Valid || p.Stock.Int64 != 7 ||
		p.Description.String != "Cold-pressed." || !p.Active || p.CreatedAt != db.Millis(t0) {
		t.Fatalf("stored %+v", p)
	}
	in, err := EditProduct(ctx, d.R, id)
	if err != nil || in != (ProductInput{Name: "Argan oil 50 ml", SKU: "ARG-50", Price: "12.5", Stock: "7", Description: "Cold-pressed.", Active: true}) {
		t.Fatalf("EditProduct: %+v, %v", in, err)
	}

	later := t0.Add(time.Hour)
	if changed, err := UpdateProduct(ctx, d, id, in, later); err != nil || changed {
		t.Fatalf("saving the form unchanged: changed %v, %v", changed, err)
	}
	in.Stock, in.Active, in.SKU = "", false, ""
	if changed, err := UpdateProduct(ctx, d, id, in, later); err != nil || !changed {
		t.Fatalf("update: changed %v, %v", changed, err)
	}
	p, _ = d.R.GetProduct(ctx, id)
	if p.Stock.Valid || p.Active || p.SKU.Valid || p.UpdatedAt != db.Millis(later) {
		t.Fatalf("after update %+v: want stock not counted, inactive, no SKU, updated_at moved", p)
	}
	if _, err := UpdateProduct(ctx, d, 999, in, later); !errors.Is(err, ErrNotFound) {
		t.Fatalf("update of a missing product: %v", err)
	}
}

func TestProductValidation(t *testing.T) {
	d := openDB(t)
	ctx := context.Background()
	if _, err := CreateProduct(ctx, d, ProductInput{Name: "Shampoo", SKU: "sh-1", Price: "9"}, t0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		in    ProductInput
		field string
	}{
		{"no name", ProductInput{Name: " ", Price: "1"}, "name"},
		{"long name", ProductInput{Name: strings.Repeat("x", 201), Price: "1"}, "name"},
		{"control in name", ProductInput{Name: "a\x07b", Price: "1"}, "name"},
		{"no price", ProductInput{Name: "x"}, "price"},
		{"bad price", ProductInput{Name: "x", Price: "1.234"}, "price"},
		{"negative price", ProductInput{Name: "x", Price: "-1"}, "price"},
		{"bad stock", ProductInput{Name: "x", Price: "1", Stock: "-2"}, "stock"},
		{"fractional stock", ProductInput{Name: "x", Price: "1", Stock: "1.5"}, "stock"},
		{"long SKU", ProductInput{Name: "x", Price: "1", SKU: strings.Repeat("s", 65)}, "sku"},
		{"taken SKU, other case", ProductInput{Name: "x", Price: "1", SKU: "SH-1"}, "sku"},
		{"long description", ProductInput{Name: "x", Price: "1", Description: strings.Repeat("d", 2001)}, "description"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CreateProduct(ctx, d, tc.in, t0)
			var inv *Invalid
			if !errors.As(err, &inv) || inv.Msgs[tc.field].Key == "" {
				t.Fatalf("got %v, want a message on %s", err, tc.field)
			}
		})
	}
	var n int
	d.Read.QueryRow(`SELECT count(*) FROM products`).Scan(&n)
	if n != 1 {
		t.Fatalf("%d products after refusals, want 1", n)
	}
	// The database refuses a duplicate SKU whatever writes it (the last word).
	_, err := d.Write.Exec(`INSERT INTO products (name, sku, price_cents, created_at, updated_at) VALUES ('y', 'Sh-1', 1, 0, 0)`)
	if err == nil {
		t.Fatal("the database stored a second product with SKU sh-1")
	}
	if got := skuTaken(err); !errors.As(got, new(*Invalid)) {
		t.Fatalf("skuTaken(%v) = %v, want an Invalid on sku", err, got)
	}
}

func TestListProducts(t *testing.T) {
	d := openDB(t)
	ctx := context.Background()
	for _, in := range []ProductInput{
		{Name: "Crème hydratante", SKU: "CR-01", Price: "20", Active: true},
		{Name: "Argan oil", SKU: "AO-50", Price: "12.5", Active: true},
		{Name: "Old cream", SKU: "cr-02", Price: "5"},
		{Name: "Brush", Price: "3", Active: true},
	} {
		if _, err := CreateProduct(ctx, d, in, t0); err != nil {
			t.Fatal(err)
		}
	}
	yes, no := true, false
	tests := []struct {
		name    string
		f       ProductFilter
		limit   int64
		offset  int64
		want    []string
		wantAll int64
	}{
		{"all", ProductFilter{}, 10, 0, []string{"Crème hydratante", "Argan oil", "Old cream", "Brush"}, 4},
		{"active", ProductFilter{Active: &yes}, 10, 0, []string{"Crème hydratante", "Argan oil", "Brush"}, 3},
		{"inactive", ProductFilter{Active: &no}, 10, 0, []string{"Old cream"}, 1},
		{"accents and case ignored", ProductFilter{Search: "CREME"}, 10, 0, []string{"Crème hydratante"}, 1},
		{"by SKU", ProductFilter{Search: "cr-0"}, 10, 0, []string{"Crème hydratante", "Old cream"}, 2},
		{"SKU, active only", ProductFilter{Search: "cr-0", Active: &yes}, 10, 0, []string{"Crème hydratante"}, 1},
		{"short search", ProductFilter{Search: "Br"}, 10, 0, []string{"Brush"}, 1},
		{"short search in SKU", ProductFilter{Search: "ao"}, 10, 0, []string{"Argan oil"}, 1},
		{"quotes are text", ProductFilter{Search: `"oil`}, 10, 0, []string{}, 0},
		{"FTS syntax is text", ProductFilter{Search: "oil OR cream"}, 10, 0, []string{}, 0},
		{"paged", ProductFilter{}, 2, 2, []string{"Old cream", "Brush"}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, total, err := ListProducts(ctx, d.R, tc.f, tc.limit, tc.offset)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range rows {
				got = append(got, r.Name)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || total != tc.wantAll {
				t.Fatalf("got %q of %d, want %q of %d", got, total, tc.want, tc.wantAll)
			}
		})
	}
}
