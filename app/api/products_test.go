package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"frontdesk/app/catalog"
)

// seedProducts adds three products through the catalogue's own writer: 1 Argan oil (counted
// stock 5), 2 Crème (stock not counted), 3 an inactive old shampoo.
func (f *fixture) seedProducts(t *testing.T) {
	t.Helper()
	for _, in := range []catalog.ProductInput{
		{Name: "Argan oil 50 ml", SKU: "ARG-50", Price: "12500", Stock: "5", Description: "Cold-pressed.", Active: true},
		{Name: "Crème hydratante", SKU: "CR-01", Price: "8990.50", Active: true},
		{Name: "Old shampoo", Price: "3000", Stock: "0"},
	} {
		if _, err := catalog.CreateProduct(context.Background(), f.db, in, f.now); err != nil {
			t.Fatal(err)
		}
	}
}

type productResp struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	SKU         *string `json:"sku"`
	Price       string  `json:"price"`
	Active      bool    `json:"active"`
	Stock       *int64  `json:"stock"`
	Description *string `json:"description"`
}

func TestProductsAPI(t *testing.T) {
	f := newFixture(t)
	f.seedProducts(t)

	resp, raw := f.call("GET", "/v3/products/1", nil)
	wantStatus(t, resp, raw, http.StatusOK)
	validateResponse(t, "getProduct", resp, raw)
	want := `{"id":1,"name":"Argan oil 50 ml","sku":"ARG-50","price":"12500.0","active":true,"stock":5,` +
		`"description":"Cold-pressed.","company_id":1,"created_at":"2026-11-23T12:00:00Z","updated_at":"2026-11-23T12:00:00Z"}` + "\n"
	if string(raw) != want {
		t.Fatalf("got\n%s\nwant\n%s", raw, want)
	}
	resp, raw = f.call("GET", "/v3/products/2", nil)
	if p := decodeAs[productResp](t, wantStatus(t, resp, raw, http.StatusOK)); p.Stock != nil || p.Description != nil || p.Price != "8990.5" {
		t.Errorf("product 2: %s, want stock and description null", raw)
	}

	tests := []struct {
		query string
		want  []int64
		total int
	}{
		{"", []int64{1, 2, 3}, 3},
		{"?active=true", []int64{1, 2}, 2},
		{"?active=false", []int64{3}, 1},
		{"?search=creme", []int64{2}, 1},
		{"?search=ARG", []int64{1}, 1},
		{"?search=%20oil%20&active=true", []int64{1}, 1},
		{"?search=sh&active=false", []int64{3}, 1},
		{"?search=nothing", []int64{}, 0},
		{"?per_page=2&page=2", []int64{3}, 3},
	}
	for _, tc := range tests {
		t.Run("list"+tc.query, func(t *testing.T) {
			resp, raw := f.call("GET", "/v3/products"+tc.query, nil)
			wantStatus(t, resp, raw, http.StatusOK)
			validateResponse(t, "listProducts", resp, raw)
			got := decodeAs[struct {
				Data       []productResp `json:"data"`
				Pagination struct {
					TotalRecords int `json:"total_records"`
				} `json:"pagination"`
			}](t, raw)
			ids := []int64{}
			for _, p := range got.Data {
				ids = append(ids, p.ID)
			}
			if len(ids) != len(tc.want) || got.Pagination.TotalRecords != tc.total {
				t.Fatalf("got %v of %d, want %v of %d", ids, got.Pagination.TotalRecords, tc.want, tc.total)
			}
			for i := range ids {
				if ids[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", ids, tc.want)
				}
			}
		})
	}

	for _, c := range []struct {
		name, path string
		status     int
		code       string
		detail     string
	}{
		{"missing", "/v3/products/99", 404, "not_found", "product"},
		{"not an id", "/v3/products/abc", 404, "not_found", "product"},
		{"bad active", "/v3/products?active=maybe", 400, "bad_request", "invalid_active"},
		{"bad page", "/v3/products?page=0", 400, "bad_request", "invalid_page"},
		{"long search", "/v3/products?search=" + strings.Repeat("a", 101), 400, "bad_request", "search_too_long"},
		{"control in search", "/v3/products?search=a%07b", 400, "bad_request", "invalid_search"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := f.call("GET", c.path, nil)
			wantError(t, resp, raw, c.status, c.code, c.detail)
			op := "listProducts"
			if strings.HasPrefix(c.path, "/v3/products/") {
				op = "getProduct"
			}
			validateResponse(t, op, resp, raw)
		})
	}

	// products:read is its own scope: a key for services only is refused; one with it reads.
	resp, raw = f.callWithKey(f.newKey("services:read"), "GET", "/v3/products", nil)
	wantError(t, resp, raw, http.StatusForbidden, "forbidden", "scope_denied")
	validateResponse(t, "listProducts", resp, raw)
	resp, raw = f.callWithKey(f.newKey("products:read"), "GET", "/v3/products/1", nil)
	wantStatus(t, resp, raw, http.StatusOK)
}
