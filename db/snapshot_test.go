package db

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateSnapshot = flag.Bool("update-snapshot", false, "rewrite db/schema.sql from the migrations")

// freshValues are the columns the migrations fill with a value of their own for each database,
// and the expression the snapshot computes it with instead: secrets drawn at random, and the
// time goose recorded for each migration. Every other value must come out of the snapshot
// exactly as the migrations write it.
var freshValues = map[string]string{
	"goose_db_version.tstamp":          "datetime('now')",
	"mcp_settings.slot_key":            "randomblob(32)",
	"site_settings.calendar_id":        "lower(hex(randomblob(16)))",
	"message_settings.unsubscribe_key": "randomblob(32)",
}

// The committed snapshot is what the migrations produce today, and a database made from it is
// the database the migrations make: the same schema objects in the same order, the same
// pragmas, the same rows, and fresh values of the same type and size where each database has
// its own.
//
// After adding a migration: go test ./db -run TestSchemaSnapshot -update-snapshot
func TestSchemaSnapshot(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	_, migrated := migratedTo(t, KnownSchema())
	want, err := snapshotOf(ctx, migrated)
	if err != nil {
		t.Fatal(err)
	}
	if *updateSnapshot {
		if err := os.WriteFile("schema.sql", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("wrote schema.sql; run the test again without -update-snapshot")
	}
	if schemaSnapshot != want {
		t.Fatal("db/schema.sql is not what the migrations produce; regenerate it: go test ./db -run TestSchemaSnapshot -update-snapshot")
	}

	_, fromSnapshot := emptyDatabase(t)
	if applied, err := applySnapshot(ctx, fromSnapshot); err != nil || !applied {
		t.Fatalf("applySnapshot on an empty database: applied %v, %v", applied, err)
	}
	provider, err := newProvider(fromSnapshot)
	if err != nil {
		t.Fatal(err)
	}
	if pending, err := provider.HasPending(ctx); err != nil || pending {
		t.Fatalf("migrations pending after the snapshot: %v %v", pending, err)
	}
	if applied, err := applySnapshot(ctx, fromSnapshot); err != nil || applied {
		t.Fatalf("applySnapshot on a database with a schema: applied %v, %v; want it left alone", applied, err)
	}
	a, b := fingerprint(t, migrated, true), fingerprint(t, fromSnapshot, true)
	if diff := firstDifference(a, b); diff != "" {
		t.Fatalf("the snapshot's database differs from the migrated one:\n%s", diff)
	}
}

// The values freshValues lists are the only ones that differ between two migrated databases,
// and the snapshot draws its secrets anew for each database it makes.
func TestSchemaSnapshotFreshValues(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	_, one := migratedTo(t, KnownSchema())
	_, two := migratedTo(t, KnownSchema())
	for _, column := range differingColumns(fingerprint(t, one, false), fingerprint(t, two, false)) {
		if _, ok := freshValues[column]; !ok {
			t.Errorf("%s differs between two migrated databases; list it in freshValues with the expression a migration computes it with", column)
		}
	}
	_, x := emptyDatabase(t)
	_, y := emptyDatabase(t)
	for _, conn := range []*sql.DB{x, y} {
		if _, err := applySnapshot(ctx, conn); err != nil {
			t.Fatal(err)
		}
	}
	differ := differingColumns(fingerprint(t, x, false), fingerprint(t, y, false))
	for column, expr := range freshValues {
		if strings.Contains(expr, "random") && !slices.Contains(differ, column) {
			t.Errorf("%s is the same in two databases made from the snapshot; it must be drawn for each", column)
		}
	}
}

// snapshotOf writes the SQL that makes an empty database into the one behind conn: its tables,
// then their rows (before any trigger exists, so no trigger fires on them), then the indexes,
// views and triggers, each kind in the order the migrations made them. Tables SQLite makes by
// itself (sqlite_sequence, a full-text index's shadow tables) come with the statements that
// make them; sqlite_sequence's values are written out.
func snapshotOf(ctx context.Context, conn *sql.DB) (string, error) {
	objects, err := schemaObjects(ctx, conn)
	if err != nil {
		return "", err
	}
	kinds, err := tableKinds(ctx, conn)
	if err != nil {
		return "", err
	}
	var version int64
	if err := conn.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&version); err != nil {
		return "", err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "-- The database that migrations 1 to %d make from an empty file (db/snapshot.go).\n", version)
	out.WriteString("-- Generated; do not edit. After adding a migration: go test ./db -run TestSchemaSnapshot -update-snapshot\n")
	out.WriteString("PRAGMA defer_foreign_keys = ON;\n")
	var tables []string
	for _, o := range objects {
		if o.typ == "table" && o.sql.Valid && !strings.HasPrefix(o.name, "sqlite_") && kinds[o.name].kind != "shadow" {
			tables = append(tables, o.name)
			out.WriteString(o.sql.String + ";\n")
		}
	}
	for _, table := range tables {
		if err := writeRows(ctx, conn, &out, table, kinds[table]); err != nil {
			return "", err
		}
	}
	if _, ok := kinds["sqlite_sequence"]; ok {
		out.WriteString("DELETE FROM sqlite_sequence;\n")
		if err := writeRows(ctx, conn, &out, "sqlite_sequence", kinds["sqlite_sequence"]); err != nil {
			return "", err
		}
	}
	for _, o := range objects {
		if o.typ != "table" && o.sql.Valid {
			out.WriteString(o.sql.String + ";\n")
		}
	}
	return out.String(), nil
}

type schemaObject struct {
	typ, name, table string
	sql              sql.NullString
}

func schemaObjects(ctx context.Context, conn *sql.DB) ([]schemaObject, error) {
	rows, err := conn.QueryContext(ctx, `SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var objects []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.typ, &o.name, &o.table, &o.sql); err != nil {
			return nil, err
		}
		objects = append(objects, o)
	}
	return objects, rows.Err()
}

type tableKind struct {
	kind         string // table, virtual or shadow
	withoutRowid bool
}

func tableKinds(ctx context.Context, conn *sql.DB) (map[string]tableKind, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name NOT IN ('sqlite_schema', 'sqlite_master')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	kinds := map[string]tableKind{}
	for rows.Next() {
		var name string
		var k tableKind
		if err := rows.Scan(&name, &k.kind, &k.withoutRowid); err != nil {
			return nil, err
		}
		kinds[name] = k
	}
	return kinds, rows.Err()
}

// columns are a table's columns in order, without hidden ones (a full-text table's own name).
func columns(ctx context.Context, conn *sql.DB, table string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// writeRows writes an INSERT for each row of table, values as SQLite's quote() renders them
// (exact for every type), fresh values as their expression. A virtual table must be empty:
// its rows would have to be written through it, which no migration does yet.
func writeRows(ctx context.Context, conn *sql.DB, out *strings.Builder, table string, k tableKind) error {
	cols, err := columns(ctx, conn, table)
	if err != nil {
		return err
	}
	rows, err := selectCells(ctx, conn, table, k, cols, false, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	cells := make([]string, len(cols))
	dest := make([]any, len(cols))
	for i := range cells {
		dest[i] = &cells[i]
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteName(c)
	}
	for rows.Next() {
		if k.kind != "table" {
			return fmt.Errorf("%s is a %s table with rows; the snapshot cannot write them", table, k.kind)
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		for i, c := range cols {
			if expr, ok := freshValues[table+"."+c]; ok {
				cells[i] = expr
			}
		}
		fmt.Fprintf(out, "INSERT INTO %s (%s) VALUES (%s);\n", quoteName(table), strings.Join(names, ", "), strings.Join(cells, ", "))
	}
	return rows.Err()
}

// selectCells selects every row of table, each column as quote() renders it, in a stable order
// (by rowid, or a WITHOUT ROWID table's primary key), withRowid with the rowid first; the
// columns in masked as their type and length instead of their value.
func selectCells(ctx context.Context, conn *sql.DB, table string, k tableKind, cols []string, withRowid bool, masked map[string]string) (*sql.Rows, error) {
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = "quote(" + quoteName(c) + ")"
		if _, ok := masked[table+"."+c]; ok {
			exprs[i] = "typeof(" + quoteName(c) + ") || ' of length ' || length(" + quoteName(c) + ")"
		}
	}
	if withRowid {
		exprs = append([]string{"quote(rowid)"}, exprs...)
	}
	query := "SELECT " + strings.Join(exprs, ", ") + " FROM " + quoteName(table)
	if !k.withoutRowid {
		query += " ORDER BY rowid"
	}
	return conn.QueryContext(ctx, query)
}

func quoteName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// fingerprint describes a database a line per fact: its pragmas, its schema objects (those a
// CREATE TABLE makes in creation order, then the rest in theirs) and every cell of every table,
// shadow tables and sqlite_sequence included, as "table.column[rowid] = value". With mask, the
// freshValues columns show only their type and length.
func fingerprint(t *testing.T, conn *sql.DB, mask bool) []string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	for _, pragma := range []string{"page_size", "auto_vacuum", "encoding", "user_version", "application_id"} {
		var v string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&v); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, "PRAGMA "+pragma+" = "+v)
	}
	objects, err := schemaObjects(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	madeWithTable := func(o schemaObject) bool { return o.typ == "table" || (o.typ == "index" && !o.sql.Valid) }
	for _, withTable := range []bool{true, false} {
		for _, o := range objects {
			if madeWithTable(o) == withTable {
				lines = append(lines, fmt.Sprintf("%s %s on %s: %s", o.typ, o.name, o.table, o.sql.String))
			}
		}
	}
	kinds, err := tableKinds(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	masked := map[string]string{}
	if mask {
		masked = freshValues
	}
	for _, o := range objects {
		k, ok := kinds[o.name]
		if o.typ != "table" || !ok {
			continue
		}
		cols, err := columns(ctx, conn, o.name)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := selectCells(ctx, conn, o.name, k, cols, !k.withoutRowid, masked)
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		names := cols
		if !k.withoutRowid {
			names = append([]string{"rowid"}, cols...)
		}
		cells := make([]sql.NullString, len(names))
		dest := make([]any, len(names))
		for i := range cells {
			dest[i] = &cells[i]
		}
		for n := 0; rows.Next(); n++ {
			if err := rows.Scan(dest...); err != nil {
				t.Fatal(err)
			}
			for i, c := range names {
				lines = append(lines, fmt.Sprintf("%s.%s[%d] = %s", o.name, c, n, cells[i].String))
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return lines
}

// firstDifference shows where two fingerprints first part, or "" when they are equal.
func firstDifference(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  migrated: %.300s\n  snapshot: %.300s", i+1, x, y)
		}
	}
	return ""
}

// differingColumns lists the "table.column" of every cell line on which two fingerprints of
// the same shape differ.
func differingColumns(a, b []string) []string {
	var cols []string
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		cell, _, ok := strings.Cut(a[i], "[")
		if !ok || strings.Contains(cell, " ") {
			cols = append(cols, "(not a cell) "+a[i])
			continue
		}
		if !slices.Contains(cols, cell) {
			cols = append(cols, cell)
		}
	}
	if len(a) != len(b) {
		cols = append(cols, fmt.Sprintf("(%d lines against %d)", len(a), len(b)))
	}
	return cols
}
