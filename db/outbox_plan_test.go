package db

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The outbox's indexes (docs/webhooks.md, "What the writer pays per delivery"): every index on
// events, deliveries and delivery_attempts costs each insert a b-tree write on the one writer,
// so each must serve a query that would otherwise scan a table that grows with every event.
// outboxPlans is each such query with the index it must be planned through.
var outboxPlans = []struct {
	name, query, index string
}{
	// The dispatcher, per round and per webhook.
	{"ClaimDueFirstAttempts", claimDueFirstAttempts, "deliveries_pending"},
	{"ListDueRetries", listDueRetries, "deliveries_pending"},
	{"NextRetryAfter", nextRetryAfter, "deliveries_pending"},
	{"OldestFailingDelivery", oldestFailingDelivery, "deliveries_pending"},
	// The delivery log, per webhook and per event, and the endpoint's health.
	{"ListWebhookDeliveries", listWebhookDeliveries, "deliveries_webhook"},
	{"LastWebhookDelivery", lastWebhookDelivery, "deliveries_webhook"},
	{"RecentWebhookOutcomes", recentWebhookOutcomes, "deliveries_attempted"},
	{"LastWebhookAttempt", lastWebhookAttempt, "deliveries_attempted"},
	{"WebhookDeliveredSince", webhookDeliveredSince, "deliveries_attempted"},
	{"AdminRecentWebhookAttempts", adminRecentWebhookAttempts, "deliveries_attempted"},
	{"ListEventDeliveries", listEventDeliveries, "deliveries_event"},
	{"ListDeliveryAttempts", listDeliveryAttempts, "delivery_attempts_delivery"},
	// Retention and the dashboard.
	{"PruneEvents", pruneEvents, "events_created"},
	{"PruneDeliveryAttempts", pruneDeliveryAttempts, "delivery_attempts_started"},
	{"DeliveryAttemptStatsSince", deliveryAttemptStatsSince, "delivery_attempts_started"},
}

// placeholders returns a zero argument for each parameter of query (?, or ?N as sqlc writes
// named ones): the plan does not depend on their values.
func placeholders(query string) []any {
	n := 0
	for _, m := range regexp.MustCompile(`\?(\d*)`).FindAllStringSubmatch(query, -1) {
		if m[1] == "" {
			n++
			continue
		}
		k, _ := strconv.Atoi(m[1])
		n = max(n, k)
	}
	return make([]any, n)
}

// TestOutboxQueryPlans: each hot query on the outbox reads through its index, never by scanning
// a whole table; and every index on those tables is one some query needs (an index no query
// names is a write cost for nothing: drop it in a migration, or name its query here).
func TestOutboxQueryPlans(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	scan := regexp.MustCompile(`\bSCAN (events|deliveries|delivery_attempts)\b( AS \w+)?$`)
	needed := map[string]bool{}
	for _, p := range outboxPlans {
		rows, err := d.Read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+p.query, placeholders(p.query)...)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "INDEX "+p.index+" ") && !strings.HasSuffix(text, "INDEX "+p.index) {
			t.Errorf("%s is not planned through %s:\n%s", p.name, p.index, text)
		}
		for _, line := range plan {
			if scan.MatchString(line) {
				t.Errorf("%s scans a whole table (%q):\n%s", p.name, line, text)
			}
		}
		needed[p.index] = true
	}
	rows, err := d.Read.QueryContext(ctx, `SELECT name, tbl_name FROM sqlite_schema
		WHERE type = 'index' AND tbl_name IN ('events', 'deliveries', 'delivery_attempts') AND sql IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, table string
		if err := rows.Scan(&name, &table); err != nil {
			t.Fatal(err)
		}
		if !needed[name] {
			t.Errorf("index %s on %s serves none of the outbox's queries: every insert pays for it", name, table)
		}
	}
}
