package db

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
)

// schemaSnapshot is what every migration up to the newest, run on an empty database, leaves
// in it: the schema and the rows the migrations seed, as SQL. A new database gets it in one
// transaction instead of running the migrations one by one, which costs some 250 ms of the
// appliance's first start (mostly SQLite checking the whole schema again after each ALTER
// TABLE). snapshot_test.go writes the file and checks that it gives the same database as the
// migrations do, value for value; the values that must differ per database (random keys, the
// time each migration ran) are SQL expressions there, evaluated when it is applied.
//
//go:embed schema.sql
var schemaSnapshot string

// applySnapshot gives an empty database the snapshot, and reports whether it did: a database
// with anything in it is left to the migrations. Migrations newer than the snapshot still run
// after it (goose sees the versions it records), so a stale snapshot is slower, never wrong.
func applySnapshot(ctx context.Context, conn *sql.DB) (bool, error) {
	// A plain read first: a command opening a live database must not take its write lock.
	if empty, err := isEmpty(ctx, conn); err != nil || !empty {
		return false, err
	}
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE on the writer: no one else creates it meanwhile
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if empty, err := isEmpty(ctx, tx); err != nil || !empty {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, schemaSnapshot); err != nil {
		return false, fmt.Errorf("apply the schema snapshot: %w", err)
	}
	return true, tx.Commit()
}

func isEmpty(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (bool, error) {
	var objects int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&objects)
	return objects == 0, err
}
