package resource

import "frontdesk/db"

// Sale is the Connect v3 Sale: what was paid for a cart, where, and the transactions that paid
// it.
type Sale struct {
	ID            int64             `json:"id"`
	CartID        int64             `json:"cart_id"`
	ClientID      *int64            `json:"client_id"`
	PendingAmount string            `json:"pending_amount"`
	PaidAmount    string            `json:"paid_amount"`
	Status        string            `json:"status"`
	PaidAt        *string           `json:"paid_at"`
	LocationID    int64             `json:"location_id"`
	Location      SaleLocation      `json:"location"`
	Transactions  []SaleTransaction `json:"transactions"`
	CreatedAt     string            `json:"created_at"`
	UpdatedAt     string            `json:"updated_at"`
}

// SaleLocation is the location summary inside a sale.
type SaleLocation struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// SaleTransaction is one payment within a sale.
type SaleTransaction struct {
	ID            int64         `json:"id"`
	Amount        string        `json:"amount"`
	CreatedAt     string        `json:"created_at"`
	PaidAt        *string       `json:"paid_at"`
	PaymentMethod PaymentMethod `json:"payment_method"`
}

// PaymentMethod is how a transaction was paid (cash, card terminal, bank transfer, online).
type PaymentMethod struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
	Name string `json:"name"`
}

// NewSale builds a sale from its row (with the location's name) and its transactions, which
// may include other sales' (only this sale's are taken).
func NewSale(r db.SalesByIDsRow, transactions []db.SaleTransactionsRow) Sale {
	s := r.Sale
	out := Sale{
		ID:            s.ID,
		CartID:        s.CartID,
		ClientID:      NullInt(s.ClientID),
		PendingAmount: Money(s.PendingCents),
		PaidAmount:    Money(s.PaidCents),
		Status:        s.Status,
		PaidAt:        NullTimestamp(s.PaidAt),
		LocationID:    s.LocationID,
		Location:      SaleLocation{ID: s.LocationID, Name: r.LocationName},
		Transactions:  []SaleTransaction{},
		CreatedAt:     Timestamp(s.CreatedAt),
		UpdatedAt:     Timestamp(s.UpdatedAt),
	}
	for _, t := range transactions {
		if t.SaleID != s.ID {
			continue
		}
		out.Transactions = append(out.Transactions, SaleTransaction{
			ID: t.ID, Amount: Money(t.AmountCents), CreatedAt: Timestamp(t.CreatedAt), PaidAt: NullTimestamp(t.PaidAt),
			PaymentMethod: PaymentMethod{ID: t.PaymentMethodID, Type: t.PaymentMethodType, Name: t.PaymentMethodName},
		})
	}
	return out
}
