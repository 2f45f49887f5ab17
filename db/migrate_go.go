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

// editTableSQL replaces old with new in table's stored CREATE TABLE text, following SQLite's
// documented procedure: writable_schema on, one UPDATE, schema_version bumped so every
// connection (in any process) reloads the schema, writable_schema off, integrity check.
func editTableSQL(ctx context.Context, tx *sql.Tx, table, old, new string) error {
	var stored string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&stored); err != nil {
		return fmt.Errorf("read %s schema: %w", table, err)
	}
	if strings.Count(stored, old) != 1 {
		return fmt.Errorf("%s schema: expected exactly one %q", table, old)
	}
	var version int64
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return err
	}
	steps := []struct {
		sql  string
		args []any
	}{
		{`PRAGMA writable_schema = ON`, nil},
		{`UPDATE sqlite_schema SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = ?`, []any{old, new, table}},
		{fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), nil},
		{`PRAGMA writable_schema = OFF`, nil},
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("edit %s schema: %s: %w", table, s.sql, err)
		}
	}
	var check string
	if err := tx.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("edit %s schema: integrity check: %s", table, check)
	}
	return nil
}
