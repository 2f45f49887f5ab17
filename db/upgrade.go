package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// OpenOptions change how OpenWith treats the file (docs/deploy.md "Upgrades").
type OpenOptions struct {
	// MustExist refuses a missing or empty file, or one that is not a frontdesk database,
	// instead of creating a new database: commands other than serve, migrate and import must
	// never answer "success" over a fresh, empty database because --data was mistyped.
	MustExist bool
	// AppVersion, when set, is recorded in app_versions whenever a different version (or the
	// same at a new schema) opens the database, so a later downgrade can name it.
	AppVersion string
	// Now names the pre-upgrade backups; time.Now when nil.
	Now func() time.Time
	// OnUpgradeBackup, if set, is told about each pre-upgrade backup written.
	OnUpgradeBackup func(path string, from, to int64)
	// Pending says what to do with a schema older than this binary's.
	Pending PendingPolicy
}

// PendingPolicy is what OpenWith does when migrations are pending.
type PendingPolicy int

const (
	// ApplyPending backs the database up next to itself, then migrates (serve, migrate, import).
	ApplyPending PendingPolicy = iota
	// RefusePending returns a *BehindError: commands that merely use the database must not
	// change its schema behind the operator's back, perhaps under a running older server.
	RefusePending
	// IgnorePending opens the database as it is, without migrating or checking the version
	// (backup, which copies any schema).
	IgnorePending
)

// BehindError is the refusal to use a database whose schema needs migrations first.
type BehindError struct {
	Path          string
	Schema, Known int64
}

func (e *BehindError) Error() string {
	behind := fmt.Sprintf("has schema version %d and this frontdesk uses %d", e.Schema, e.Known)
	if e.Schema >= e.Known {
		behind = fmt.Sprintf("has schema version %d but lacks earlier migrations this frontdesk has", e.Schema)
	}
	return fmt.Sprintf("%s %s; upgrade it first with 'frontdesk migrate' "+
		"(which backs it up before changing anything), or run 'frontdesk serve', which does the same", e.Path, behind)
}

// UpgradeBackupsKept is how many pre-upgrade backups stay next to the database; older ones
// are removed when a new one is written.
const UpgradeBackupsKept = 3

// ErrNoDatabase is wrapped by OpenWith's refusal of a missing, empty or foreign file.
var ErrNoDatabase = errors.New("no frontdesk database")

// DowngradeError is the refusal to open a database whose schema is newer than this binary
// knows: it was written by a newer frontdesk, and running an older one on it could lose data.
type DowngradeError struct {
	Path      string
	Schema    int64  // the database's schema version
	Known     int64  // the newest schema version this binary knows
	WrittenBy string // the frontdesk version that last opened it, "" if unknown
	Backups   []string
}

func (e *DowngradeError) Error() string {
	by := "a newer frontdesk"
	if e.WrittenBy != "" {
		by = "frontdesk " + e.WrittenBy
	}
	msg := fmt.Sprintf("%s has schema version %d, written by %s; this frontdesk knows schema versions up to %d. "+
		"Run %s or newer on it", e.Path, e.Schema, by, e.Known, strings.TrimPrefix(by, "a "))
	if len(e.Backups) > 0 {
		msg += fmt.Sprintf(", or restore the backup taken before that upgrade (%s)", strings.Join(e.Backups, ", "))
	}
	return msg
}

// checkExisting refuses a path that holds no frontdesk database, without creating anything.
func checkExisting(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist", ErrNoDatabase, path)
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNoDatabase, err)
	case fi.IsDir():
		return fmt.Errorf("%w: %s is a directory", ErrNoDatabase, path)
	case fi.Size() == 0:
		return fmt.Errorf("%w: %s is an empty file", ErrNoDatabase, path)
	}
	// Read the file with a plain read-only connection: no pragmas that could turn a foreign
	// file into WAL mode or leave -wal/-shm files behind.
	ro, err := sql.Open("sqlite", readOnlyDSN(path))
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrNoDatabase, path, err)
	}
	defer ro.Close()
	var n int
	if err := ro.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'`).Scan(&n); err != nil {
		return fmt.Errorf("%w: %s is not a SQLite database (%v)", ErrNoDatabase, path, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s is a SQLite database, but not frontdesk's", ErrNoDatabase, path)
	}
	return nil
}

// readOnlyDSN reads a file without writing anything next to it. A read-only connection to a
// WAL database creates -wal and -shm files when they are missing and leaves them behind; when
// they are missing no process has the database open, so the file can be read as immutable.
// When they exist (a server is running) they are shared as they are.
func readOnlyDSN(path string) string {
	if _, err := os.Stat(path + "-wal"); err == nil {
		return "file:" + uriPath.Replace(path) + "?mode=ro"
	}
	return "file:" + uriPath.Replace(path) + "?mode=ro&immutable=1"
}

// upgrade brings the schema up to date: a new, empty database gets the schema snapshot in one
// step (snapshot.go); it refuses a downgrade, and before applying any migration to a database
// that already has a schema it writes a backup next to it.
func upgrade(ctx context.Context, conn *sql.DB, path string, o OpenOptions) (int64, error) {
	if _, err := applySnapshot(ctx, conn); err != nil {
		return 0, err
	}
	provider, err := newProvider(conn)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	current, err := provider.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	sources := provider.ListSources()
	known := sources[len(sources)-1].Version
	if current > known {
		e := &DowngradeError{Path: path, Schema: current, Known: known, Backups: upgradeBackups(path)}
		if last, err := New(conn).LastAppVersion(ctx); err == nil {
			e.WrittenBy = last.Version
		}
		return current, e
	}
	// Pending, not current < known: a database may lack a migration below its newest one
	// (newProvider).
	pending, err := provider.HasPending(ctx)
	if err != nil {
		return current, fmt.Errorf("pending migrations: %w", err)
	}
	if current > 0 && pending && o.Pending == RefusePending {
		return current, &BehindError{Path: path, Schema: current, Known: known}
	}
	if current > 0 && pending {
		now := time.Now
		if o.Now != nil {
			now = o.Now
		}
		dest := fmt.Sprintf("%s.pre-upgrade-%s-schema%d", path, now().UTC().Format("20060102T150405Z"), current)
		if err := vacuumInto(ctx, conn, dest); err != nil {
			return current, fmt.Errorf("backup before upgrading the schema from %d to %d: %w", current, known, err)
		}
		if o.OnUpgradeBackup != nil {
			o.OnUpgradeBackup(dest, current, known)
		}
		pruneUpgradeBackups(path)
	}
	if _, err := provider.Up(ctx); err != nil {
		return current, fmt.Errorf("migrate: %w", err)
	}
	if o.AppVersion != "" {
		if err := noteAppVersion(ctx, New(conn), o.AppVersion, known, o.Now); err != nil {
			return known, err
		}
	}
	return known, nil
}

func noteAppVersion(ctx context.Context, q *Queries, version string, schema int64, now func() time.Time) error {
	last, err := q.LastAppVersion(ctx)
	if err == nil && last.Version == version && last.SchemaVersion == schema {
		return nil
	}
	if err != nil && !IsNotFound(err) {
		return err
	}
	if now == nil {
		now = time.Now
	}
	return q.RecordAppVersion(ctx, RecordAppVersionParams{Version: version, SchemaVersion: schema, RecordedAt: Millis(now())})
}

// upgradeBackups lists the pre-upgrade backups next to path, oldest first.
func upgradeBackups(path string) []string {
	matches, _ := filepath.Glob(globEscape(path) + ".pre-upgrade-*")
	slices.Sort(matches) // the UTC timestamp in the name sorts by age
	return matches
}

func pruneUpgradeBackups(path string) {
	all := upgradeBackups(path)
	for len(all) > UpgradeBackupsKept {
		os.Remove(all[0])
		all = all[1:]
	}
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// vacuumInto writes a consistent copy of the database behind conn to dest, readable by its
// owner only (a backup holds password hashes and webhook secrets). dest must not exist: an
// existing file is never overwritten.
func vacuumInto(ctx context.Context, conn interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, dest string) error {
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s already exists; choose a new file name", dest)
		}
		return err
	}
	f.Close()
	// VACUUM INTO fills the empty file SQLite finds there, keeping its 0600 mode.
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		os.Remove(dest)
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	return os.Chmod(dest, 0o600)
}

// Status is what Inspect finds in a database file, without changing it.
type Status struct {
	Exists    bool
	Schema    int64  // 0 when missing or not a frontdesk database
	Known     int64  // the newest schema this binary knows
	Missing   int    // migrations this binary knows below Schema that the database lacks (newProvider)
	WrittenBy string // the version that last recorded itself, "" if unknown
	Err       error  // why the file is not usable, if it is not
}

// Inspect reads a database's schema version read-only, for `frontdesk doctor`.
func Inspect(ctx context.Context, path string) Status {
	st := Status{Known: KnownSchema()}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return st
	}
	st.Exists = true
	if st.Err = checkExisting(path); st.Err != nil {
		return st
	}
	ro, err := sql.Open("sqlite", readOnlyDSN(path))
	if err != nil {
		st.Err = err
		return st
	}
	defer ro.Close()
	if err := ro.QueryRowContext(ctx, `SELECT coalesce(max(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&st.Schema); err != nil {
		st.Err = err
		return st
	}
	if st.Missing, err = missingBelow(ctx, ro, st.Schema); err != nil {
		st.Err = err
		return st
	}
	if last, err := New(ro).LastAppVersion(ctx); err == nil {
		st.WrittenBy = last.Version
	}
	return st
}

// missingBelow counts the migrations below schema that the database lacks, as goose sees them
// (newProvider applies them out of order).
func missingBelow(ctx context.Context, conn *sql.DB, schema int64) (int, error) {
	provider, err := newProvider(conn)
	if err != nil {
		return 0, err
	}
	statuses, err := provider.Status(ctx)
	if err != nil {
		return 0, fmt.Errorf("migration status: %w", err)
	}
	n := 0
	for _, s := range statuses {
		if s.State == goose.StatePending && s.Source.Version < schema {
			n++
		}
	}
	return n, nil
}

// KnownSchema is the newest schema version among the embedded migrations, SQL and Go.
func KnownSchema() int64 {
	entries, _ := fs.ReadDir(migrationsFS(), ".")
	var v int64
	for _, e := range entries {
		var n int64
		if _, err := fmt.Sscanf(e.Name(), "%d_", &n); err == nil && n > v {
			v = n
		}
	}
	for _, m := range goMigrations() {
		v = max(v, m.Version)
	}
	return v
}
