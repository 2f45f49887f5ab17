package db

import (
	"context"
	"testing"
)

// TestMigration00332MovesTheLogTexts: attempts logged before 00332 keep every header and body
// they had, now as shared texts stored once, and the attempt rows no longer carry them.
func TestMigration00332MovesTheLogTexts(t *testing.T) {
	fromScratch(t)
	ctx := context.Background()
	path, conn := migratedTo(t, 331)
	for _, s := range []string{
		`INSERT INTO webhooks (id, url, events_json, created_at, updated_at) VALUES (1, 'https://example.com/', '["*"]', 1, 1)`,
		`INSERT INTO events (id, type, body, created_at) VALUES ('evt_1', 'client.created', '{"a":1}', 1)`,
		`INSERT INTO deliveries (id, event_id, webhook_id, state, created_at, updated_at) VALUES (1, 'evt_1', 1, 'succeeded', 1, 1)`,
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	want := [][3]string{
		{"Content-Type: application/json\nWebhook-Id: evt_1\n", "Date: one\n", "ok"},
		{"Content-Type: application/json\nWebhook-Id: evt_1\nX: 2\n", "Date: two\n", "ok"},
	}
	for i, w := range want {
		if _, err := conn.ExecContext(ctx, `INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
			request_headers, response_headers, response_body) VALUES (1, ?, ?, 5, 200, ?, ?, ?)`, i+1, 1000*(i+1), w[0], w[1], w[2]); err != nil {
			t.Fatal(err)
		}
	}
	d := openMigrated(t, conn, path)
	rows, err := d.R.ListDeliveryAttempts(ctx, 1)
	if err != nil || len(rows) != 2 {
		t.Fatalf("attempts: %v, %v", rows, err)
	}
	for i, r := range rows {
		if got := [3]string{r.RequestHeaders, r.ResponseHeaders, r.ResponseBody}; got != want[i] || r.Signature.Valid {
			t.Errorf("attempt %d after the move: %q (signature %v), want %q as it was", i+1, got, r.Signature, want[i])
		}
	}
	var texts, bodyColumns int
	if err := d.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM delivery_texts`).Scan(&texts); err != nil {
		t.Fatal(err)
	}
	if texts != 5 { // two request blocks, two response blocks, one "ok"
		t.Errorf("%d texts, want 5: each distinct text once", texts)
	}
	if err := d.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('delivery_attempts')
		WHERE name IN ('request_headers', 'response_headers', 'response_body')`).Scan(&bodyColumns); err != nil {
		t.Fatal(err)
	}
	if bodyColumns != 0 {
		t.Errorf("delivery_attempts still has %d text columns", bodyColumns)
	}
}
