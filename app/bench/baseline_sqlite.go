package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the driver frontdesk itself uses
)

// rawBookings is the booking scenarios' ceiling: the same SQLite engine with the same pragmas
// as db.Open (a separate file, one writer connection, BEGIN IMMEDIATE) running the smallest
// correct booking transaction — a bounded overlap check, then an insert, then commit — with
// prepared statements. Everything frontdesk adds (HTTP, JSON, keys, rules, the outbox row) is
// what the ratio measures.
type rawBookings struct {
	db             *sql.DB
	exists, insert *sql.Stmt
}

// rawMaxBlock bounds the overlap search, as the schema's CHECK does for real bookings.
const rawMaxBlock = int64(48 * time.Hour / time.Millisecond)

func openRawBookings(ctx context.Context, path string) (*rawBookings, error) {
	// The pragmas of db.Open's writer (see db.dsn).
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	d, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(1)
	d.SetMaxIdleConns(1)
	d.SetConnMaxIdleTime(0)
	r := &rawBookings{db: d}
	_, err = d.ExecContext(ctx, `
CREATE TABLE IF NOT EXISTS bookings (
    id          INTEGER PRIMARY KEY,
    provider_id INTEGER NOT NULL,
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS bookings_provider_start ON bookings (provider_id, start_at);`)
	if err == nil {
		r.exists, err = d.PrepareContext(ctx, `SELECT EXISTS (SELECT 1 FROM bookings
WHERE provider_id = ?1 AND start_at > ?2 - ?4 AND start_at < ?3 AND end_at > ?2)`)
	}
	if err == nil {
		r.insert, err = d.PrepareContext(ctx, `INSERT INTO bookings (provider_id, start_at, end_at, created_at) VALUES (?, ?, ?, ?)`)
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("raw SQLite baseline: %w", err)
	}
	return r, nil
}

func (r *rawBookings) close() error { return r.db.Close() }

// book runs one booking transaction and reports Refused when the time was taken.
func (r *rawBookings) book(ctx context.Context, provider int64, start, end time.Time) (Outcome, error) {
	s, e := start.UnixMilli(), end.UnixMilli()
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var taken bool
	if err := tx.StmtContext(ctx, r.exists).QueryRowContext(ctx, provider, s, e, rawMaxBlock).Scan(&taken); err != nil {
		return 0, err
	}
	if taken {
		return Refused, nil
	}
	if _, err := tx.StmtContext(ctx, r.insert).ExecContext(ctx, provider, s, e, time.Now().UnixMilli()); err != nil {
		return 0, err
	}
	return Succeeded, tx.Commit()
}

// blocks reads every booking, sorted for countOverlaps.
func (r *rawBookings) blocks(ctx context.Context) ([]block, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT provider_id, start_at, end_at FROM bookings ORDER BY provider_id, start_at`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []block
	for rows.Next() {
		var b block
		if err := rows.Scan(&b.provider, &b.start, &b.end); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// rawName is the baseline's file in dir: one per mode, so the race starts on an empty table.
func rawName(racers int) string {
	if racers > 0 {
		return "raw-race.db"
	}
	return "raw-free.db"
}

// op books g's times through the raw loop: free mode when racers is 0, a race otherwise.
func (r *rawBookings) op(g grid, racers int) Op {
	var next atomic.Int64
	return func(ctx context.Context, _ int) (Outcome, error) {
		k := next.Add(1) - 1
		if racers == 0 {
			p, start, err := g.free(k)
			if err != nil {
				return 0, err
			}
			return r.book(ctx, p, start, start.Add(time.Duration(g.step)*time.Minute))
		}
		p, start, _, err := g.race(k, racers)
		if err != nil {
			return 0, err
		}
		return r.book(ctx, p, start, start.Add(g.raceDuration()))
	}
}

const rawWhat = "raw SQLite: BEGIN IMMEDIATE, overlap check, insert, commit"

// overlaps sweeps the baseline's own table, and fails in free mode if anything was refused:
// the grid would then be handing out overlapping times.
func (r *rawBookings) overlaps(ctx context.Context, f Figures, racers int) (int, error) {
	if racers == 0 && f.Refused > 0 {
		return 0, errors.New("raw SQLite baseline: a free-mode booking was refused; the grid hands out overlapping times")
	}
	blocks, err := r.blocks(ctx)
	if err != nil {
		return 0, err
	}
	return countOverlaps(blocks), nil
}
