package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
)

// fanoutEndpoints is how many webhooks every event goes to.
const fanoutEndpoints = 3

// eventData is a booking.created payload of the size and shape docs/webhooks.md describes.
type eventData struct {
	ID         int64  `json:"id"`
	StartTime  string `json:"start_time"`
	EndTime    string `json:"end_time"`
	ServiceID  int64  `json:"service_id"`
	ClientID   int64  `json:"client_id"`
	LocationID int64  `json:"location_id"`
	ProviderID int64  `json:"provider_id"`
	Status     string `json:"status"`
}

func sampleEvent(n int64) eventData {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("", -5*3600)).Add(time.Duration(n) * time.Minute)
	return eventData{ID: n, StartTime: start.Format(time.RFC3339), EndTime: start.Add(30 * time.Minute).Format(time.RFC3339),
		ServiceID: 3, ClientID: 42, LocationID: 1, ProviderID: 5, Status: "confirmed"}
}

// hooks is the receiver with three webhooks registered on the appliance for it.
type hooks struct {
	rc   *receiver
	keys [][]byte // per endpoint, in path order /hook/1 …
	ids  []int64  // the webhooks, to remove them when the scenario ends
	db   *db.DB
}

// registerHooks starts the receiver and registers its endpoints as webhooks for booking.*
// through the same manager the CLI and the admin UI use.
func registerHooks(ctx context.Context, d *db.DB) (*hooks, error) {
	rc, err := startReceiver()
	if err != nil {
		return nil, err
	}
	h := &hooks{rc: rc, db: d}
	m := webhook.NewManager(d, webhook.ManagerOptions{})
	for i := range fanoutEndpoints {
		path := fmt.Sprintf("/hook/%d", i+1)
		wh, secret, err := m.Create(ctx, webhook.CreateInput{URL: rc.URL + path, Events: []string{"booking.*"}, Description: "frontdesk bench receiver", AllowPrivate: true})
		if err != nil {
			h.remove(ctx)
			return nil, fmt.Errorf("register webhook: %w", err)
		}
		h.ids = append(h.ids, wh.ID)
		key, err := webhook.ParseSecret(secret)
		if err != nil {
			h.remove(ctx)
			return nil, err
		}
		rc.setKey(path, key)
		h.keys = append(h.keys, key)
	}
	return h, nil
}

// remove stops the receiver and deletes the webhooks, so later scenarios' bookings deliver to
// nobody.
func (h *hooks) remove(ctx context.Context) {
	h.rc.stop()
	m := webhook.NewManager(h.db, webhook.ManagerOptions{})
	for _, id := range h.ids {
		m.Delete(ctx, id) // a scenario's end: nothing to do about a failure but leave it
	}
}

// awaitCount waits until want first receipts arrived, or no more arrive for drainWait, and
// returns how many did.
func (h *hooks) awaitCount(ctx context.Context, want int) int {
	last, since := -1, time.Now()
	for ctx.Err() == nil {
		arrivals, _, _ := h.rc.results()
		if len(arrivals) >= want {
			return len(arrivals)
		}
		if len(arrivals) != last {
			last, since = len(arrivals), time.Now()
		} else if time.Since(since) > drainWait {
			return len(arrivals)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return last
}

// commit writes one event through the outbox, in a transaction of its own as a booking would,
// and returns its id and the moment the commit returned.
func (h *hooks) commit(ctx context.Context, n int64) (string, time.Time, error) {
	var id string
	err := h.db.InTx(ctx, func(q *db.Queries) error {
		var err error
		id, err = webhook.Enqueue(ctx, q, time.Now(), "booking.created", sampleEvent(n))
		return err
	})
	return id, time.Now(), err
}

// probe commits one event and waits for all its deliveries, so a missing dispatcher shows up
// as "unavailable" rather than as a scenario of errors.
func (h *hooks) probe(ctx context.Context, wait time.Duration) error {
	done := make(chan struct{})
	var got atomic.Int64
	h.rc.reset(true, func(eventKey) {
		if got.Add(1) == fanoutEndpoints {
			close(done)
		}
	})
	defer h.rc.reset(false, nil)
	if _, _, err := h.commit(ctx, 0); err != nil {
		return err
	}
	select {
	case <-done:
		return nil
	case <-time.After(wait):
		return fmt.Errorf("no webhook dispatcher delivered a committed event to its %d endpoints within %s (%d arrived)", fanoutEndpoints, wait, got.Load())
	case <-ctx.Done():
		return ctx.Err()
	}
}

// commits remembers when each event committed (pointer-free, like the receiver's records).
type commits struct {
	mu sync.Mutex
	at map[eventKey]benchTime
}

func newCommits() *commits { return &commits{at: map[eventKey]benchTime{}} }

func (c *commits) add(id string, at time.Time) {
	k, ok := keyOfEvent(id)
	if !ok {
		return // never: the appliance's ids fit; an event not remembered shows as missing
	}
	c.mu.Lock()
	c.at[k] = benchTimeOf(at)
	c.mu.Unlock()
}

// drainWait bounds how long a run waits for the deliveries of its last events.
const drainWait = 10 * time.Second

// fanoutResult turns arrivals into a sample: the deliveries received in [from, to), and the
// commit→receipt latencies of the deliveries of events committed in the window. Deliveries of
// those events that never arrived are errors.
func fanoutResult(c *commits, arrivals []arrival, bad int64, from, to time.Time) sample {
	s := sample{seconds: to.Sub(from).Seconds(), errors: bad}
	in := func(t benchTime) bool { return t >= benchTimeOf(from) && t < benchTimeOf(to) }
	received := map[eventKey]int{}
	for _, a := range arrivals {
		if in(a.at) {
			s.succeeded++
		}
		committed, ok := c.at[a.id]
		if ok && in(committed) {
			received[a.id]++
			s.latencies = append(s.latencies, max(0, time.Duration(a.at-committed)))
		}
	}
	for id, at := range c.at {
		if in(at) {
			if missing := fanoutEndpoints - received[id]; missing > 0 {
				s.errors += int64(missing)
				if s.firstErr == nil {
					s.firstErr = fmt.Errorf("event %s: %d of %d deliveries never arrived", id, missing, fanoutEndpoints)
				}
			}
		}
	}
	return s
}

// fanoutPair measures the dispatcher's most deliveries per second (fanoutMax) and its bare-POST
// baseline in alternating slices of l.Duration, as DrivePair does for the other scenarios, so
// that background load weighs on both alike.
func (h *hooks) fanoutPair(ctx context.Context, l Load, window int) (res, base Figures, err error) {
	var rs, bs sample
	err = l.alternate(fanoutRounds(l.Duration), func(slice Load) error {
		b, err := h.barePost(ctx, slice)
		if err != nil {
			return err
		}
		bs.add(b)
		var r sample
		l.around(func() { r, err = h.fanoutMax(ctx, slice, window) })
		rs.add(r)
		return err
	})
	if err != nil {
		return Figures{}, Figures{}, err
	}
	res, base = rs.figures(), bs.figures()
	res.What = "events committed → signed deliveries received"
	base.What = "bare loop POSTing signed bodies to the same receiver"
	return res, base, nil
}

// minFanoutSlice is the shortest slice fanoutPair cuts its window into. Unlike a request, a
// delivery arrives some time after its commit, and a slice counts only the deliveries that
// arrive within it: in a slice of a few tens of milliseconds on a loaded machine (the bench's
// own test, under the race detector) none may. A full run's slices are seconds long.
const minFanoutSlice = 250 * time.Millisecond

// fanoutRounds is how many slices of d fanoutPair alternates: pairRounds, fewer when slices
// would be shorter than minFanoutSlice.
func fanoutRounds(d time.Duration) int {
	return max(1, min(pairRounds, int(d/minFanoutSlice)))
}

// fanoutMax commits events as fast as the dispatcher delivers them, each in a transaction of
// its own from l.Concurrency producers, keeping at most window events in flight so the queue
// stays short, and records the deliveries received.
func (h *hooks) fanoutMax(ctx context.Context, l Load, window int) (sample, error) {
	c := newCommits()
	slots := make(chan struct{}, window)
	var mu sync.Mutex
	received := map[eventKey]int{}
	h.rc.reset(true, func(id eventKey) {
		mu.Lock()
		received[id]++
		full := received[id] == fanoutEndpoints
		mu.Unlock()
		if full {
			select {
			case <-slots:
			default: // an event of an earlier run, which took no slot
			}
		}
	})
	defer h.rc.reset(false, nil)

	start := time.Now()
	from, to := start.Add(l.Warmup), start.Add(l.Warmup+l.Duration)
	// One producer per client of the scenario (l.Concurrency, 16 by default): events come from
	// bookings, and bookings arrive from many clients at once, each committing its own
	// transaction, which the group commit then batches (db/groupcommit.go). One or two
	// producers committing one event at a time would measure the commit round trip instead.
	wait := startProducers(ctx, max(l.Concurrency, 1), to, slots, func(n int64) error {
		id, at, err := h.commit(ctx, n)
		if err == nil {
			c.add(id, at)
		}
		return err
	})
	time.Sleep(time.Until(from))
	sampler := startRSSSampler()
	produceErr := wait()
	peak := sampler.stop()
	if produceErr != nil {
		return sample{}, produceErr
	}
	h.awaitDeliveries(ctx, c)
	arrivals, _, bad := h.rc.results()
	s := fanoutResult(c, arrivals, bad, from, to)
	s.peakRSS = peak
	return s, nil
}

// startProducers starts producers goroutines that commit events numbered 1, 2, … until to,
// each taking a slot of slots first (the receiver frees it once the event has reached every
// endpoint). wait waits for them all and returns the first error: a commit's, or slots that
// stayed full for drainWait.
func startProducers(ctx context.Context, producers int, to time.Time, slots chan struct{}, commit func(n int64) error) (wait func() error) {
	var n atomic.Int64
	var produceErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range producers {
		wg.Go(func() {
			for time.Now().Before(to) && ctx.Err() == nil {
				select {
				case slots <- struct{}{}:
				case <-time.After(drainWait):
					errOnce.Do(func() {
						produceErr = fmt.Errorf("deliveries stalled: %d events in flight for %s", cap(slots), drainWait)
					})
					return
				case <-ctx.Done():
					return
				}
				if err := commit(n.Add(1)); err != nil {
					errOnce.Do(func() { produceErr = err })
					return
				}
			}
		})
	}
	return func() error {
		wg.Wait()
		return produceErr
	}
}

// minPaced is the fewest events a paced run commits in its recorded window.
const minPaced = 20

// fanoutPaced commits events at a steady rate (deliveries per second across all endpoints) and
// measures each delivery's first-attempt latency from commit to receipt.
//
// The recorded window is a number of commits, not only a stretch of time: it opens when the
// warm-up's commits are done and holds every commit of its schedule, however late they come.
// A commit that stalls (the machine is loaded, a checkpoint holds the write lock) then delays
// the window instead of leaving it empty: cut at a fixed time, a window whose commits all came
// after its end timed no delivery at all.
func (h *hooks) fanoutPaced(ctx context.Context, l Load, deliveriesPerSecond float64) (Figures, error) {
	c := newCommits()
	h.rc.reset(true, nil)
	// At least minPaced events in the window, whatever the rate: a tiny run (the bench's own
	// test, under the race detector) can measure a maximum so low that half of it would commit
	// nothing after the warm-up, and leave no latency to read.
	interval := min(time.Duration(float64(time.Second)*fanoutEndpoints/deliveriesPerSecond), l.Duration/minPaced)
	var n int64
	commitOnSchedule := func(start time.Time, count int64) error {
		for i := range count {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
			id, at, err := h.commit(ctx, n)
			if err != nil {
				return err
			}
			n++
			c.add(id, at)
		}
		return nil
	}
	if err := commitOnSchedule(time.Now(), int64(l.Warmup/interval)); err != nil {
		return Figures{}, err
	}
	from := time.Now()
	sampler := startRSSSampler()
	err := commitOnSchedule(from, max(minPaced, int64(l.Duration/interval)))
	to := from.Add(l.Duration)
	if last := time.Now().Add(time.Nanosecond); last.After(to) { // the window ends after its last commit
		to = last
	}
	peak := sampler.stop()
	if err != nil {
		return Figures{}, err
	}
	h.awaitDeliveries(ctx, c)
	arrivals, _, bad := h.rc.results()
	s := fanoutResult(c, arrivals, bad, from, to)
	s.peakRSS = peak
	f := s.figures()
	f.What = fmt.Sprintf("first attempts, paced at %.0f deliveries/s", deliveriesPerSecond)
	return f, nil
}

// awaitDeliveries waits until every committed event has reached every endpoint, or drainWait.
func (h *hooks) awaitDeliveries(ctx context.Context, c *commits) {
	want := len(c.at) * fanoutEndpoints
	deadline := time.Now().Add(drainWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		arrivals, _, _ := h.rc.results()
		got := 0
		for _, a := range arrivals {
			if _, ok := c.at[a.id]; ok {
				got++
			}
		}
		if got >= want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// barePost is webhook_fanout's ceiling: workers POSTing the same kind of signed bodies to the
// same receiver with keep-alive connections, with nothing between them and the wire.
func (h *hooks) barePost(ctx context.Context, l Load) (sample, error) {
	h.rc.reset(false, nil)
	hc := newClient(h.rc.URL, "", l.Concurrency).http
	defer hc.CloseIdleConnections()
	// Bodies are rendered before the run, as the outbox renders each event's body once at
	// commit; signing happens per attempt in both.
	bodies := make([][]byte, 1024)
	for i := range bodies {
		var err error
		if bodies[i], err = envelope(sampleEvent(int64(i))); err != nil {
			return sample{}, err
		}
	}
	var n atomic.Int64
	post := Op(func(ctx context.Context, _ int) (Outcome, error) {
		k := n.Add(1)
		id, err := webhook.NewEventID(time.Now())
		if err != nil {
			return 0, err
		}
		body := bodies[k%int64(len(bodies))]
		endpoint := int(k % fanoutEndpoints)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/hook/%d", h.rc.URL, endpoint+1), bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		dispatch.SetHeaders(req.Header, [][]byte{h.keys[endpoint]}, id, time.Now(), body)
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return 0, fmt.Errorf("receiver answered %d", resp.StatusCode)
		}
		return Succeeded, nil
	})
	s := drive(ctx, l, post.mixed())
	if _, _, bad := h.rc.results(); bad > 0 {
		return s, errors.New("the receiver refused the baseline's own signatures")
	}
	return s, nil
}

// envelope renders an event body the way the outbox does (webhook.Enqueue): the envelope of
// docs/webhooks.md, HTML characters unescaped, no trailing newline.
func envelope(data any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(webhook.Envelope{Type: "booking.created", Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Data: data})
	return bytes.TrimRight(buf.Bytes(), "\n"), err
}
