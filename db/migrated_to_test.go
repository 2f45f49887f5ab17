package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// migratedTo makes a database file migrated up to version, for a test of the migrations after
// it: its path, one connection to it, and the provider whose Up applies the rest.
func migratedTo(t *testing.T, version int64) (path string, conn *sql.DB, provider *goose.Provider) {
	t.Helper()
	path = filepath.Join(t.TempDir(), FileName)
	conn, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetMaxOpenConns(1)
	provider, err = goose.NewProvider(goose.DialectSQLite3, conn, migrationsFS(), goose.WithGoMigrations(goMigrations()...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.UpTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	return path, conn, provider
}
