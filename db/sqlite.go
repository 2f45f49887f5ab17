// Package db owns the SQLite file: opening it with the right pragmas, the embedded forward-only
// migrations, the one transaction helper every write goes through, and the sqlc-generated
// queries (db.go, models.go and *.sql.go are generated from ../queries; do not edit them).
package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// FileName is the database file inside the data directory.
const FileName = "frontdesk.db"

// DB is the database: one writer connection, so writes queue in Go instead of fighting over the
// file lock, and a small read pool that WAL lets run beside it (see PERFORMANCE.md).
type DB struct {
	Write *sql.DB
	Read  *sql.DB
	// W and R are the generated queries bound to the two pools, through a cache of prepared
	// statements (stmtcache.go). Use W only inside InTx or for single-statement writes; use R
	// for everything that only reads.
	W *Queries
	R *Queries

	path        string
	afterCommit []func()
	writeStmts  *stmtCache // prepared statements of the writer, reused by every InTx
	readStmts   *stmtCache // prepared statements of the read pool, behind R and ReadDB
	catalog     CatalogCache
	counted     CountedCache
	storage     Storage    // full disk or not (storage.go)
	committer   *committer // runs every InTx (groupcommit.go)
	shm         shmFile    // the WAL index, read by Stamp (stamp.go)
	unchanged   unchangedReadings
	handoffs    handoffs      // what each outbox's Enqueue hands new rows to (handoff.go)
	checkpoints *checkpointer // checkpoints the WAL off the writer (checkpoint.go)
}

// AfterCommit registers fn to run after every successful InTx commit. The webhook dispatcher
// uses it to wake up the moment an outbox row becomes visible, instead of polling. fn must not
// block.
func (d *DB) AfterCommit(fn func()) { d.afterCommit = append(d.afterCommit, fn) }

// ReadDB is the read pool through R's cache of prepared statements, for the few queries built
// at run time (a list's filters): each distinct text is prepared once, like the generated ones.
func (d *DB) ReadDB() DBTX { return d.readStmts }

// Path returns the database file in dataDir.
func Path(dataDir string) string { return filepath.Join(dataDir, FileName) }

// Open opens (creating if needed) the database file at path and applies pending migrations.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, OpenOptions{})
}

// OpenWith is Open with options: refuse a missing database instead of creating one, record the
// app version, report the pre-upgrade backup (upgrade.go).
func OpenWith(ctx context.Context, path string, o OpenOptions) (*DB, error) {
	if o.MustExist {
		if err := checkExisting(path); err != nil {
			return nil, err
		}
	} else if err := createPrivate(path); err != nil {
		return nil, err
	}
	// Whoever may change the database must be able to write it: refused here, before serve
	// listens, rather than at the first booking. A backup (IgnorePending) only reads.
	if o.Pending != IgnorePending {
		if err := CheckWritable(path); err != nil {
			return nil, err
		}
	}
	write, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxIdleTime(0)
	write.SetConnMaxLifetime(0)

	if o.Pending != IgnorePending {
		if _, err := upgrade(ctx, write, path, o); err != nil {
			write.Close()
			return nil, err
		}
	}

	read, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	read.SetMaxOpenConns(readConns)
	read.SetMaxIdleConns(readConns)
	read.SetConnMaxIdleTime(0)
	read.SetConnMaxLifetime(0)
	ws, rs := newStmtCache(write), newStmtCache(read)
	d := &DB{Write: write, Read: read, W: New(ws), R: New(rs), path: path, writeStmts: ws, readStmts: rs, committer: newCommitter()}
	d.storage.changed = make(chan struct{}, 1)
	d.checkpoints = newCheckpointer(path, d.Stamp)
	go d.commitLoop()
	return d, nil
}

// readConns is the size of the read pool.
const readConns = 2

// OpenReaders opens every connection of the read pool now, each with the schema parsed, and
// leaves them idle in the pool, where they stay (no idle timeout). serve calls it once ready:
// otherwise the pool opens its second connection the first time two reads overlap (a request
// and a worker), that request pays for parsing the schema, and an idle appliance's memory
// depends on whether that has happened yet — each connection holds the parsed schema, about
// 1 MiB with today's tables and triggers (README "Performance").
func (d *DB) OpenReaders(ctx context.Context) error {
	conns := make([]*sql.Conn, 0, readConns)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range readConns {
		c, err := d.Read.Conn(ctx)
		if err != nil {
			return fmt.Errorf("open a read connection: %w", err)
		}
		conns = append(conns, c)
		var n int
		if err := c.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil {
			return fmt.Errorf("read the schema: %w", err)
		}
	}
	return nil
}

func dsn(path string, writer bool) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	// A connection's page cache grows up to cache_size under load, and the memory SQLite frees
	// goes back to the allocator under modernc's libc, which keeps it for reuse rather than
	// handing it to the system: what these caches reach stays resident (README "Performance").
	// SQLite's default is 2 MiB a connection. A reader's cache is emptied anyway whenever
	// another connection has committed since its last read (WAL), so under writes it holds
	// little more than one query's pages; 512 KiB keeps a read-only stretch's hot index pages,
	// the rest comes from the operating system's file cache. The writer's cache survives its
	// own commits, so it keeps 1 MiB.
	cache := "cache_size(-512)"
	if writer {
		cache = "cache_size(-1024)"
	}
	q.Add("_pragma", cache)
	if writer {
		q.Set("_txlock", "immediate")
		// A group commit runs every write in a savepoint (groupcommit.go), and SQLite keeps what
		// a savepoint may have to undo in a statement journal: a temporary file by default,
		// written on every write. In memory it costs no system calls; it holds at most the pages
		// one batch's writes change.
		q.Add("_pragma", "temp_store(MEMORY)")
		// The writer checkpoints only as a backstop; a goroutine of its own does it (checkpoint.go).
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	}
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// uriPath escapes what SQLite's URI filenames read as syntax: a data directory named "x#1" or
// "a?b" must open that file, not "x" or "a" (%-escapes are decoded by SQLite).
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// Close lets the committer finish the writes already queued and closes both pools.
func (d *DB) Close() error {
	d.closeCommitter()
	d.checkpoints.close()
	return errors.Join(d.Read.Close(), d.Write.Close())
}

func migrationsFS() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	return sub
}

// newProvider is goose over the embedded SQL migrations and the Go ones (migrate_go.go).
//
// Migrations are applied out of order when they must be: features are built in parallel, each
// with its own range of migration numbers, and land on main in any order, so a database made
// by an earlier build may have 290 but not 250, which landed later (docs/deploy.md,
// "Upgrades"). goose's default refuses such a database outright, and serve would not start on
// it; instead the missing migrations are applied, lowest first, then the newer ones.
func newProvider(conn *sql.DB) (*goose.Provider, error) {
	return goose.NewProvider(goose.DialectSQLite3, conn, migrationsFS(),
		goose.WithGoMigrations(goMigrations()...), goose.WithAllowOutofOrder(true))
}

// Version reports the schema version, for `frontdesk migrate`.
func (d *DB) Version(ctx context.Context) (int64, error) {
	provider, err := newProvider(d.Write)
	if err != nil {
		return 0, err
	}
	return provider.GetDBVersion(ctx)
}

// InTx runs fn inside a write transaction on the single writer connection and returns once it
// has committed (nil) or been rolled back (fn's error, or the commit's). Every multi-statement
// write, and the webhook outbox rows that go with it, goes through here. Writes that arrive
// while another is running commit together, each in its own savepoint (groupcommit.go): fn sees
// every write committed or batched before it, and its changes commit all or none. A transaction
// refused for lack of disk space marks the storage full; one that commits while it is full asks
// the storage watcher to check (storage.go).
//
// fn calls InTx again only with a context marked by WithTx: InTx then joins fn's transaction,
// running in a savepoint of it (joined.go), which is how a use case that owns its transaction
// also serves as one step of a larger write. Called with fn's q but without the mark, InTx
// would wait for the committer that is running fn, for ever.
func (d *DB) InTx(ctx context.Context, fn func(q *Queries) error) error {
	if j, ok := d.joined(ctx); ok {
		return d.inJoined(ctx, j, fn)
	}
	return d.submit(ctx, fn, false)
}

// InTxQuiet is InTx for a queue's own bookkeeping (app/queue: claiming rows, recording
// attempts): its commit runs the AfterCommit hooks only if another write of the same batch
// needs them. The hooks wake dispatchers when someone else commits outbox rows; a dispatcher's
// own writes must not wake it, or every round would trigger another. Going through the
// committer rather than around it, such writes share a commit with whatever else is waiting
// and never compete with InTx for the writer connection. Joined (WithTx), it is InTx: the
// commit belongs to the caller's write.
func (d *DB) InTxQuiet(ctx context.Context, fn func(q *Queries) error) error {
	if j, ok := d.joined(ctx); ok {
		return d.inJoined(ctx, j, fn)
	}
	return d.submit(ctx, fn, true)
}

// ReadTx runs fn inside one read transaction on the read pool, so every query fn makes sees the
// same WAL snapshot. Pages that assemble one picture from several queries (a webhook's health)
// read through it; otherwise a write landing between two queries shows a state that never was.
func (d *DB) ReadTx(ctx context.Context, fn func(q *Queries) error) error {
	tx, err := d.Read.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer d.readStmts.preparePending(context.WithoutCancel(ctx))
	defer tx.Rollback() // nothing to commit: fn only reads
	return fn(New(&txStmts{tx: tx, cache: d.readStmts}))
}

// Backup writes a consistent copy of the live database to dest with VACUUM INTO. It reads one
// WAL snapshot on a connection of its own, so writers keep going while it copies, and it never
// checkpoints the WAL (Litestream keeps its place there). The file is created 0600 — it holds
// password hashes and webhook secrets — and an existing dest is refused, never overwritten.
func (d *DB) Backup(ctx context.Context, dest string) error {
	conn, err := d.Read.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return vacuumInto(ctx, conn, dest)
}

// IsConstraint reports whether err is SQLite refusing a write because a constraint or a trigger
// raised msg (for example "slot_unavailable" or "UNIQUE constraint failed").
func IsConstraint(err error, msg string) bool {
	return err != nil && strings.Contains(err.Error(), msg)
}

// IsNotFound reports whether err means a query returned no row.
func IsNotFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// Millis converts t to the schema's instant representation.
func Millis(t time.Time) int64 { return t.UnixMilli() }

// Time converts a stored instant back to a UTC time.
func Time(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// NullMillis converts an optional instant for storage.
func NullMillis(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}
