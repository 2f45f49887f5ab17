package db

import (
	"context"
	"database/sql"
	"encoding/binary"
	"sync"
)

// Checkpoints off the writer. In WAL mode every commit appends the pages it changed to the WAL,
// and a checkpoint copies them back into the database file. By default the connection whose
// commit takes the WAL past 1,000 pages runs that checkpoint itself, at once: here that is the
// single writer, which then spends milliseconds copying pages and waiting for two fsyncs (WAL,
// then database file) while every write queued behind it waits too. So the writer's own
// checkpoint is only a backstop (wal_autocheckpoint at writerCheckpointPages, in dsn), and a
// goroutine of its own, woken after commits, runs a PASSIVE checkpoint on a connection of its
// own once checkpointEvery pages have gathered. PASSIVE never waits for readers or the writer
// and never blocks them: it copies what no reader still needs, and SQLite lets it run beside
// a writer. It is also the only mode frontdesk ever uses, so Litestream keeps its place in the
// WAL (README, "Backups").
//
// Under a steady stream of writes the WAL rarely restarts from its beginning (that needs every
// frame copied at the moment a write transaction begins), so it grows until the writer's
// backstop checkpoint, which finds nearly every page already copied, brings it back: the WAL
// file stays under about writerCheckpointPages pages (32 MiB with 4 KiB pages).
//
// checkpointEvery is four times SQLite's default: the pages a stream of bookings changes are
// mostly the same few (the right edge of each index, the counters, the outbox), and a
// checkpoint copies each page once however often it was written since the last, so a longer
// stretch between checkpoints copies fewer pages a booking (measured at 16 writers: the
// background checkpoints' share of a create's CPU went from 4.4 to 3.1 %).
const (
	checkpointEvery       = 4000 // pages: 16 MiB of WAL with 4 KiB pages
	writerCheckpointPages = 8192
)

// checkpointer runs the background checkpoints of one database.
type checkpointer struct {
	path  string
	stamp func() (Stamp, bool) // the WAL index header (DB.Stamp)
	wake  chan struct{}        // buffered: a commit never waits for it
	stop  chan struct{}
	done  chan struct{}

	conn   *sql.DB // opened on the first checkpoint
	copied int64   // the WAL frame the last checkpoint copied up to
	once   sync.Once

	// running is held by every checkpoint this process runs (the erasure's scrub too: erase.go),
	// so none of them finds another holding SQLite's checkpoint lock and gives up.
	running sync.Mutex
}

// exclusive runs fn while no background checkpoint runs.
func (c *checkpointer) exclusive(fn func()) {
	if c == nil {
		fn()
		return
	}
	c.running.Lock()
	defer c.running.Unlock()
	fn()
}

func newCheckpointer(path string, stamp func() (Stamp, bool)) *checkpointer {
	c := &checkpointer{path: path, stamp: stamp, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// committed tells the checkpointer that the WAL grew.
func (c *checkpointer) committed() {
	if c == nil { // a DB not made by OpenWith
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// close stops the checkpointer and closes its connection; the writer's close checkpoints what
// is left, as SQLite does when the last connection closes.
func (c *checkpointer) close() {
	if c == nil {
		return
	}
	c.once.Do(func() { close(c.stop) })
	<-c.done
	if c.conn != nil {
		c.conn.Close()
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.wake:
		}
		frames, ok := c.walFrames()
		if !ok { // a commit is writing the header: the next one wakes this again
			continue
		}
		if frames < c.copied { // the WAL restarted from its beginning
			c.copied = 0
		}
		if frames-c.copied >= checkpointEvery {
			c.checkpoint()
		}
	}
}

// walFrames reads how many frames the WAL holds from the WAL index header: mxFrame, a 32-bit
// integer at offset 16 in the machine's byte order (https://sqlite.org/walformat.html, "The
// WAL-Index Header").
func (c *checkpointer) walFrames() (int64, bool) {
	h, ok := c.stamp()
	if !ok {
		return 0, false
	}
	return int64(binary.NativeEndian.Uint32(h[16:20])), true
}

// checkpoint runs one PASSIVE checkpoint. A failure (a full disk, a reader holding every
// frame) leaves the frames in the WAL for the next one or for the writer's backstop.
func (c *checkpointer) checkpoint() {
	if c.conn == nil {
		conn, err := sql.Open("sqlite", dsn(c.path, false))
		if err != nil {
			return
		}
		conn.SetMaxOpenConns(1)
		c.conn = conn
	}
	c.running.Lock()
	defer c.running.Unlock()
	var busy, log, copied int64
	err := c.conn.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied)
	if err == nil && copied >= 0 { // -1: another connection (the writer's backstop) was checkpointing
		c.copied = copied
	}
}
