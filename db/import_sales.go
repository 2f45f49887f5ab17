package db

import (
	"context"
	"database/sql"
)

// Writes of `frontdesk import` for the sections that carry a business's money history (packs,
// sales) and the links of imported bookings to them (app/importer, write_sales.go).

// ImportSaleKey is the record an earlier import created under a pack or sale key; ErrNoRows
// (IsNotFound) when there is none.
func (q *Queries) ImportSaleKey(ctx context.Context, kind, key string) (ImportKey, error) {
	k := ImportKey{Kind: kind, Key: key}
	err := q.db.QueryRowContext(ctx, `SELECT record_id, imported_at FROM import_sale_keys WHERE kind = ? AND key = ?`, kind, key).
		Scan(&k.RecordID, &k.ImportedAt)
	return k, err
}

// CreateImportSaleKey remembers a pack or sale key an import created.
func (q *Queries) CreateImportSaleKey(ctx context.Context, kind, key string, id, now int64) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO import_sale_keys (kind, key, record_id, imported_at) VALUES (?, ?, ?, ?)`, kind, key, id, now)
	return err
}

// LinkImportedBooking sets an imported booking's pack (and whether a cancelled one gave its
// session back) and the sale that paid for it.
func (q *Queries) LinkImportedBooking(ctx context.Context, id int64, pack, sale sql.NullInt64, returned bool) error {
	_, err := q.db.ExecContext(ctx, `UPDATE bookings SET pack_id = ?, sale_id = ? WHERE id = ?`, pack, sale, id)
	if err == nil && returned {
		_, err = q.db.ExecContext(ctx, `UPDATE bookings SET pack_returned = 1 WHERE id = ?`, id)
	}
	return err
}

// RecordImportedCancel sets when and by whom an imported cancelled booking was cancelled.
func (q *Queries) RecordImportedCancel(ctx context.Context, id int64, at sql.NullInt64, by sql.NullString, late bool) error {
	_, err := q.db.ExecContext(ctx, `UPDATE bookings SET cancelled_at = ?, cancelled_by = ?, cancelled_late = ? WHERE id = ?`, at, by, late, id)
	return err
}

// OpenProductForImport makes a product sellable (active, stock not counted) so that a sale's
// historical line of it can be written, and returns how to put it back: the schema refuses a
// line of an inactive product or one with less stock than the line's quantity, which is right
// for a new sale and wrong for history.
func (q *Queries) OpenProductForImport(ctx context.Context, id int64) (restore func() error, err error) {
	var active bool
	var stock sql.NullInt64
	if err := q.db.QueryRowContext(ctx, `SELECT active, stock FROM products WHERE id = ?`, id).Scan(&active, &stock); err != nil {
		return nil, err
	}
	if _, err := q.db.ExecContext(ctx, `UPDATE products SET active = 1, stock = NULL WHERE id = ?`, id); err != nil {
		return nil, err
	}
	return func() error {
		_, err := q.db.ExecContext(ctx, `UPDATE products SET active = ?, stock = ? WHERE id = ?`, active, stock, id)
		return err
	}, nil
}
