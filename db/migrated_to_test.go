package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// emptyDatabase makes a new, empty database file: its path and one writer connection to it.
func emptyDatabase(t *testing.T) (path string, conn *sql.DB) {
	t.Helper()
	path = filepath.Join(t.TempDir(), FileName)
	conn, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetMaxOpenConns(1)
	t.Cleanup(func() { conn.Close() })
	return path, conn
}

// migratedTo makes a database file migrated up to version, for a test of the migrations after
// it: its path and one connection to it, to write what an older appliance would have stored.
func migratedTo(t *testing.T, version int64) (path string, conn *sql.DB) {
	t.Helper()
	path, conn = emptyDatabase(t)
	provider, err := newProvider(conn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.UpTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	return path, conn
}

// openMigrated closes conn and opens the database at path as the appliance does at start,
// which applies the migrations after the version migratedTo stopped at. Its connections are
// new, so they read the schema as the migrations left it.
func openMigrated(t *testing.T, conn *sql.DB, path string) *DB {
	t.Helper()
	conn.Close()
	d, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
