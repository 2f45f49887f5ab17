package resource

import "frontdesk/db"

// Product is a retail product (GET /v3/products, an addition: Connect v3 has no products
// resource). Its shape follows the services': money as a decimal string, record timestamps in
// UTC. sku, stock and description are null when the business has none; a null stock means the
// stock is not counted.
type Product struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	SKU         *string `json:"sku"`
	Price       string  `json:"price"`
	Active      bool    `json:"active"`
	Stock       *int64  `json:"stock"`
	Description *string `json:"description"`
	CompanyID   int64   `json:"company_id"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
}

// NewProduct builds the resource from its row.
func NewProduct(p db.Product, companyID int64) Product {
	return Product{
		ID: p.ID, Name: p.Name, SKU: NullString(p.SKU), Price: Money(p.PriceCents), Active: p.Active,
		Stock: NullInt(p.Stock), Description: NullString(p.Description), CompanyID: companyID,
		CreatedAt: Timestamp(p.CreatedAt), UpdatedAt: Timestamp(p.UpdatedAt),
	}
}
