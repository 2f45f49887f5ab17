package db

import (
	"context"
	"encoding/binary"
	"os"
	"runtime"
	"testing"
	"time"
)

// The WAL is checkpointed off the writer: the writer's own checkpoint waits for
// writerCheckpointPages, and the background checkpointer copies the frames back into the
// database file once checkpointEvery of them have gathered, with no checkpoint asked for.
func TestCheckpointsOffTheWriter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the WAL index is read only on Unix systems")
	}
	ctx := context.Background()
	d := openTest(t)
	var pages int
	if err := d.Write.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if pages != writerCheckpointPages {
		t.Fatalf("the writer checkpoints at %d pages, want %d (its backstop)", pages, writerCheckpointPages)
	}
	if err := d.InTx(ctx, func(q *Queries) error {
		_, err := q.db.ExecContext(ctx, `CREATE TABLE scratch (b BLOB)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Each commit writes some 17 pages; stop well past checkpointEvery and well short of the
	// writer's backstop, which would copy the frames itself.
	for walFrames(t, d) < checkpointEvery+checkpointEvery/2 {
		if err := d.InTx(ctx, func(q *Queries) error {
			_, err := q.db.ExecContext(ctx, `INSERT INTO scratch VALUES (randomblob(65536))`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if n := walFrames(t, d); n >= writerCheckpointPages {
		t.Fatalf("the WAL holds %d frames: past the writer's backstop, so the test proves nothing", n)
	}
	deadline := time.Now().Add(30 * time.Second)
	for backfilled(t, d) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no frame of the WAL's %d was copied into the database within 30 s", walFrames(t, d))
		}
		time.Sleep(10 * time.Millisecond) // polling the WAL index: nothing to wait on
	}
}

// walFrames reads mxFrame from the WAL index header.
func walFrames(t *testing.T, d *DB) int64 {
	t.Helper()
	h, ok := d.Stamp()
	if !ok {
		t.Fatal("no WAL index header")
	}
	return int64(binary.NativeEndian.Uint32(h[16:20]))
}

// backfilled reads nBackfill, the WAL frames copied into the database file: the first field
// of the checkpoint information that follows the two header copies in the -shm file.
func backfilled(t *testing.T, d *DB) uint32 {
	t.Helper()
	shm, err := os.ReadFile(d.path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	return binary.NativeEndian.Uint32(shm[2*walHeaderSize : 2*walHeaderSize+4])
}
