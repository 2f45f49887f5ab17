package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// goMigrations are the migrations SQL alone cannot express. They run in version order with the
// embedded .sql files, each inside its own transaction.
func goMigrations() []*goose.Migration {
	return []*goose.Migration{
		goose.NewGoMigration(130, &goose.GoFunc{RunTx: widenBookingSources}, nil),
		// Waitlist seat messages (classes × messages): migrate_00360.go.
		goose.NewGoMigration(360, &goose.GoFunc{RunTx: addSeatMessageKind}, nil),
		// CHECKs of the hot tables as comparisons, not IN lists: migrate_00382.go.
		goose.NewGoMigration(382, &goose.GoFunc{RunTx: checksWithoutInLists}, nil),
		// Messages to providers: migrate_00411.go.
		goose.NewGoMigration(411, &goose.GoFunc{RunTx: addProviderMessages}, nil),
		// Claim links of the waitlist for appointments: migrate_00542.go.
		goose.NewGoMigration(542, &goose.GoFunc{RunTx: addOfferMessages}, nil),
		// Answers to clients' replies through the outbox: migrate_00581.go.
		goose.NewGoMigration(581, &goose.GoFunc{RunTx: addReplyMessages}, nil),
		// Gift card and membership messages: migrate_00631.go.
		goose.NewGoMigration(631, &goose.GoFunc{RunTx: addMoneyMessages}, nil),
	}
}

// widenBookingSources lets bookings.source also say 'online' (the booking site) and 'mcp' (the
// MCP server). SQLite cannot ALTER a CHECK; rebuilding the bookings table would mean dropping
// and recreating its triggers and indexes with foreign keys switched off. Relaxing a CHECK is
// instead one of the changes SQLite documents as safe to make by editing the stored schema
// text (https://sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes"):
// every existing row already satisfies the wider rule, and the on-disk format is unchanged.
func widenBookingSources(ctx context.Context, tx *sql.Tx) error {
	const (
		narrow = `CHECK (source IN ('connect', 'admin', 'import'))`
		wide   = `CHECK (source IN ('connect', 'admin', 'import', 'online', 'mcp'))`
	)
	return editTableSQL(ctx, tx, "bookings", narrow, wide)
}

// editTableSQL replaces old with new in table's stored CREATE TABLE text (editTablesSQL).
func editTableSQL(ctx context.Context, tx *sql.Tx, table, old, new string) error {
	return editTablesSQL(ctx, tx, tableEdit{table, old, new})
}

// tableEdit replaces old, which must occur exactly once, with new in table's CREATE TABLE text.
type tableEdit struct{ table, old, new string }

// editTablesSQL makes edits to the stored schema text following SQLite's documented procedure:
// writable_schema on, one UPDATE per edit, schema_version bumped so every connection (in any
// process) reloads the schema, writable_schema off, one integrity check.
func editTablesSQL(ctx context.Context, tx *sql.Tx, edits ...tableEdit) error {
	for _, e := range edits {
		var stored string
		if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`, e.table).Scan(&stored); err != nil {
			return fmt.Errorf("read %s schema: %w", e.table, err)
		}
		if strings.Count(stored, e.old) != 1 {
			return fmt.Errorf("%s schema: expected exactly one %q", e.table, e.old)
		}
	}
	var version int64
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `PRAGMA writable_schema = ON`); err != nil {
		return fmt.Errorf("edit schema: %w", err)
	}
	for _, e := range edits {
		if _, err := tx.ExecContext(ctx, `UPDATE sqlite_schema SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = ?`,
			e.old, e.new, e.table); err != nil {
			return fmt.Errorf("edit %s schema: %w", e.table, err)
		}
	}
	for _, q := range []string{fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), `PRAGMA writable_schema = OFF`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("edit schema: %s: %w", q, err)
		}
	}
	var check string
	if err := tx.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("edit schema: integrity check: %s", check)
	}
	return nil
}
