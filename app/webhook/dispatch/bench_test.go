package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/db"
)

// The figures these benchmarks report are for comparison with PERFORMANCE.md ("signed 1 KiB
// webhook POSTs to a local receiver that verifies, 16 workers: ≈18k deliveries/s"); nothing is
// asserted. Run them with:
//
//	go test ./app/webhook -run '^$' -bench . -benchtime 20000x

// benchData is about 1 KiB of event data, the size PERFORMANCE.md measured.
var benchData = map[string]any{"id": 1, "note": strings.Repeat("x", 950)}

// benchReceiver verifies every signature, as a careful receiver does, and notes when each
// event id first arrived.
type benchReceiver struct {
	srv     *httptest.Server
	key     []byte
	mu      sync.Mutex
	arrived map[string]time.Time
	count   atomic.Int64
}

func newBenchReceiver(b *testing.B) *benchReceiver {
	rc := &benchReceiver{arrived: map[string]time.Time{}}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id := r.Header.Get(webhook.HeaderID)
		ts, _ := strconv.ParseInt(r.Header.Get(webhook.HeaderTimestamp), 10, 64)
		if !strings.Contains(r.Header.Get(webhook.HeaderSignature), webhook.Sign(rc.key, id, time.Unix(ts, 0), body)) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		now := time.Now()
		rc.mu.Lock()
		if _, seen := rc.arrived[id]; !seen {
			rc.arrived[id] = now
			rc.count.Add(1)
		}
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(rc.srv.Close)
	return rc
}

func (rc *benchReceiver) waitFor(b *testing.B, n int64) {
	deadline := time.Now().Add(5 * time.Minute)
	for rc.count.Load() < n {
		if time.Now().After(deadline) {
			b.Fatalf("receiver got %d of %d events", rc.count.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func benchSetup(b *testing.B, cfg Config) (*harness, *benchReceiver) {
	h := newHarness(b)
	rc := newBenchReceiver(b)
	_, secret := h.create(rc.srv.URL, "*")
	rc.key, _ = webhook.ParseSecret(secret)
	cfg.AllowPrivate = true
	h.startDispatcher(cfg)
	return h, rc
}

// BenchmarkDeliveryThroughput commits b.N events in transactions of 100 and reports how fast
// they reach the receiver, from the first commit to the last arrival.
func BenchmarkDeliveryThroughput(b *testing.B) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"default cap 4 per endpoint", Config{Workers: 16}},
		{"cap 16 per endpoint", Config{Workers: 16, PerEndpoint: 16}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h, rc := benchSetup(b, tc.cfg)
			b.ResetTimer()
			start := time.Now()
			enqueueEvents(b, h.db, b.N)
			rc.waitFor(b, int64(b.N))
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "deliveries/s")
		})
	}
}

// BenchmarkDeliveryLatency commits events one per transaction at a moderate rate (1000/s) and
// reports the time from each commit to its arrival at the receiver.
func BenchmarkDeliveryLatency(b *testing.B) {
	h, rc := benchSetup(b, Config{Workers: 16})
	ctx := context.Background()
	committed := make(map[string]time.Time, b.N)
	b.ResetTimer()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for range b.N {
		<-tick.C
		var id string
		err := h.db.InTx(ctx, func(q *db.Queries) error {
			var err error
			id, err = webhook.Enqueue(ctx, q, time.Now(), webhook.ClientUpdated, benchData)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		committed[id] = time.Now()
	}
	rc.waitFor(b, int64(b.N))
	b.StopTimer()
	lat := make([]float64, 0, b.N)
	rc.mu.Lock()
	for id, at := range committed {
		lat = append(lat, float64(rc.arrived[id].Sub(at))/float64(time.Millisecond))
	}
	rc.mu.Unlock()
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBarePOSTLoop is the baseline: 16 goroutines POSTing signed 1 KiB bodies to the
// same receiver, with no database at all.
func BenchmarkBarePOSTLoop(b *testing.B) {
	rc := newBenchReceiver(b)
	secret, _ := webhook.NewSecret()
	rc.key, _ = webhook.ParseSecret(secret)
	client := NewHTTPClient(5*time.Second, true, 16)
	body, _ := json.Marshal(webhook.Envelope{Type: webhook.ClientUpdated, Timestamp: "2026-11-21T00:00:00.000Z", Data: benchData})
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				id, _ := webhook.NewEventID(time.Now())
				req, _ := http.NewRequest(http.MethodPost, rc.srv.URL, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				SetHeaders(req.Header, [][]byte{rc.key}, id, time.Now(), body)
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}

// BenchmarkEnqueue is the writer's share of an event: Enqueue inside a write transaction (100
// events per commit, as the fan-out loop above) with three webhooks and no dispatcher, so the
// figure is the outbox work alone — the webhook list, matching and the rows.
func BenchmarkEnqueue(b *testing.B) {
	h := newHarness(b)
	h.create("https://a.example/hook", "*")
	h.create("https://b.example/hook", "client.*")
	h.create("https://c.example/hook", "booking.created", "booking.updated")
	b.ReportAllocs()
	b.ResetTimer()
	enqueueEvents(b, h.db, b.N)
}

// enqueueEvents commits n client.updated events, 100 to a transaction.
func enqueueEvents(b *testing.B, d *db.DB, n int) {
	ctx := context.Background()
	for done := 0; done < n; {
		k := min(100, n-done)
		err := d.InTx(ctx, func(q *db.Queries) error {
			for range k {
				if _, err := webhook.Enqueue(ctx, q, time.Now(), webhook.ClientUpdated, benchData); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		done += k
	}
}
