package dbtest_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// TestCopyIsLikeFresh compares the template with a second database migrated from nothing:
// every value in which two fresh installations differ (drawn at random by a migration) must
// be drawn anew in each copy, or tests would share what installations never share.
func TestCopyIsLikeFresh(t *testing.T) {
	ctx := context.Background()
	template := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName)) // migrates the template
	other, err := db.Open(ctx, filepath.Join(t.TempDir(), db.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	copied := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	fresh := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))

	rows, err := template.Read.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("got %d tables in the template, want the whole schema", len(tables))
	}
	random := 0
	for _, table := range tables {
		if table == "goose_db_version" {
			continue // when each migration ran: a copy keeps the template's times, harmlessly
		}
		a, b := dump(t, other.Read, table), dump(t, copied.Read, table)
		c := dump(t, fresh.Read, table)
		if len(a) != len(b) || len(a) != len(c) {
			t.Fatalf("%s: got %d rows in a copy, want %d as in a fresh database", table, len(b), len(a))
		}
		for i := range a {
			for col := range a[i] {
				if reflect.DeepEqual(a[i][col], b[i][col]) {
					continue
				}
				random++
				// Installations differ here (a value drawn at random): two copies must differ
				// too. Anything else that differs from a fresh database is a copy gone wrong.
				if reflect.DeepEqual(b[i][col], c[i][col]) {
					t.Errorf("%s row %d column %s: two copies share %v where a fresh database has %v; "+
						"a value drawn at random belongs in dbtest.fresh", table, i, col, b[i][col], a[i][col])
				}
			}
		}
	}
	if random == 0 {
		t.Error("found no value that differs between installations; the comparison is not looking")
	}
}

// dump reads a table in rowid order as column → value maps.
func dump(t *testing.T, q *sql.DB, table string) []map[string]any {
	t.Helper()
	rows, err := q.Query(fmt.Sprintf(`SELECT * FROM %q ORDER BY rowid`, table))
	if err != nil {
		// WITHOUT ROWID tables: their primary key orders them.
		if rows, err = q.Query(fmt.Sprintf(`SELECT * FROM %q ORDER BY 1`, table)); err != nil {
			t.Fatal(err)
		}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		for i, c := range cols {
			m[c] = vals[i]
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
