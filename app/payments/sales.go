package payments

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// SaleFilter selects sales for GET /v3/sales. Zero ids and nil dates do not filter.
type SaleFilter struct {
	ClientID, LocationID int64
	// PaidFrom and PaidTo are local dates, inclusive: a sale matches when it was paid on one of
	// those dates in its own location's zone (a sale at 22:00 in Santiago is on that day there,
	// though it is the next day in UTC).
	PaidFrom, PaidTo *booking.Date
}

// ListSales returns one page of matching sales in id order and how many match in all.
//
// As for bookings (app/booking/list.go), the WHERE clause is assembled from the filters given,
// so each query is planned for its own indexes; every value is a bound parameter and only fixed
// column names are concatenated. The page is then read by id with the sqlc query SalesByIDs.
func ListSales(ctx context.Context, d *db.DB, f SaleFilter, limit, offset int64) ([]resource.Sale, int64, error) {
	where, args, err := saleWhere(ctx, d.R, f)
	if err != nil {
		return nil, 0, err
	}
	var total int64
	if err := d.Read.QueryRowContext(ctx, "SELECT count(*) FROM sales s WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sales: %w", err)
	}
	if total == 0 || offset >= total {
		return []resource.Sale{}, total, nil
	}
	rows, err := d.Read.QueryContext(ctx, "SELECT s.id FROM sales s WHERE "+where+" ORDER BY s.id LIMIT ? OFFSET ?",
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sales: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	sales, err := salesByIDs(ctx, d.R, ids)
	return sales, total, err
}

// GetSale returns sale id. Errors: ErrSaleNotFound.
func GetSale(ctx context.Context, q *db.Queries, id int64) (resource.Sale, error) {
	sales, err := salesByIDs(ctx, q, []int64{id})
	if err != nil {
		return resource.Sale{}, err
	}
	if len(sales) == 0 {
		return resource.Sale{}, ErrSaleNotFound
	}
	return sales[0], nil
}

// salesByIDs reads sales with their transactions, in the order of ids.
func salesByIDs(ctx context.Context, q *db.Queries, ids []int64) ([]resource.Sale, error) {
	rows, err := q.SalesByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("read sales: %w", err)
	}
	transactions, err := q.SaleTransactions(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("read transactions: %w", err)
	}
	out := make([]resource.Sale, 0, len(rows))
	for _, r := range rows {
		out = append(out, resource.NewSale(r, transactions))
	}
	slices.SortFunc(out, func(a, b resource.Sale) int { return slices.Index(ids, a.ID) - slices.Index(ids, b.ID) })
	return out, nil
}

func saleWhere(ctx context.Context, q *db.Queries, f SaleFilter) (string, []any, error) {
	where := []string{"1 = 1"}
	var args []any
	if f.ClientID != 0 {
		where, args = append(where, "s.client_id = ?"), append(args, f.ClientID)
	}
	if f.LocationID != 0 {
		where, args = append(where, "s.location_id = ?"), append(args, f.LocationID)
	}
	if f.PaidFrom != nil || f.PaidTo != nil {
		cond, dateArgs, err := paidWhere(ctx, q, f)
		if err != nil {
			return "", nil, err
		}
		where, args = append(where, cond), append(args, dateArgs...)
	}
	return strings.Join(where, " AND "), args, nil
}

// paidWhere turns local dates into paid_at ranges per location zone.
func paidWhere(ctx context.Context, q *db.Queries, f SaleFilter) (string, []any, error) {
	ranges, err := booking.LocalDateRanges(ctx, q, f.LocationID, f.PaidFrom, f.PaidTo)
	if err != nil {
		return "", nil, err
	}
	cond, args := booking.RangesWhere(ranges, "s.location_id", "s.paid_at")
	return cond, args, nil
}
