package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync/atomic"
	"time"
)

// dayMix is the shape of a busy installation's traffic: mostly reads and lists,
// then slot searches, a few creates and reschedules, fewer cancels — with three webhook
// endpoints receiving every booking event and the customers' emails (confirmations, notices)
// going to a mail server. Weights are per thousand operations.
var dayMix = []struct {
	kind   string
	weight int
}{
	{"read", 350},      // GET /v3/services/{id}, or one of the worker's own bookings
	{"list", 350},      // GET /v3/bookings at the studio, 30 per page
	{"slots", 200},     // GET /v3/available_slots, one day of the coming week
	{"create", 60},     // POST /v3/bookings on a free time
	{"reschedule", 20}, // PATCH /v3/bookings/{id} to another free time
	{"cancel", 20},     // PATCH /v3/bookings/{id}/cancel
}

// dayWorker is one client's state: its own random stream and the bookings it made, which it
// later reads, moves and cancels — no two workers touch the same booking.
type dayWorker struct {
	rng      *rand.Rand
	bookings []ownBooking
}

// ownBooking is a booking a worker made, and how often it was moved (the business allows only
// so many changes per booking; see choose).
type ownBooking struct {
	id      int64
	changes int
}

// dayInTheLife runs the mix against the bare chi baseline, interleaved, and reports the
// sustained rate (its ratio is the one figure in which a regression anywhere shows), p50/p99 by
// kind, the webhook lag from commit to receipt, and the customer emails: every one due by the
// end must be sent (or rightly skipped) and reach the mail sink, with its lag from the booking's
// commit to the mail server's acceptance.
func dayInTheLife(ctx context.Context, e *env) ScenarioReport {
	h, err := registerHooks(ctx, e.app.DB)
	if err != nil {
		return failed(err)
	}
	defer h.remove(context.WithoutCancel(ctx))
	h.rc.reset(true, nil)
	h.rc.measureLag()
	mail, err := sendCustomerMail(ctx, e.app.DB)
	if err != nil {
		return failed(err)
	}
	defer func() {
		if err := mail.stop(context.WithoutCancel(ctx)); err != nil {
			e.progress("day_in_the_life: mail settings not restored (later scenarios may send email): %v", err)
		}
	}()

	b, err := startJSONBaseline()
	if err != nil {
		return failed(err)
	}
	defer b.stop()
	bc := newClient(b.URL, "", e.load.Concurrency)
	defer bc.close()

	d := e.newDay()
	if _, _, err := d.create(ctx, &dayWorker{rng: rand.New(rand.NewPCG(0, 0))}); err != nil {
		return *probeOrReport(err)
	}
	var res, base Figures
	err = e.profiled("day_in_the_life", func() {
		res, base = DriveMixedPair(ctx, e.load, d.op(), b.op(bc))
	})
	if err != nil {
		return failed(err)
	}
	res.What = "the mix: 35 % reads, 35 % lists, 20 % slot searches, 6 % creates, 2 % reschedules, 2 % cancels; 3 webhooks, customer email"
	base.What = jsonBaselineWhat

	// Every committed write produced one event for each endpoint: wait for them all.
	want := fanoutEndpoints * int(d.writes.Load())
	arrived := h.awaitCount(ctx, want)
	if missing := want - arrived; missing > 0 {
		res.addErrors(int64(missing), fmt.Sprintf("%d of %d webhook deliveries never arrived", missing, want))
	}
	lagP50, lagP99 := lagPercentiles(h.rc.lagsSoFar())
	mf, err := mail.await(ctx, time.Now(), mailWait)
	if err != nil {
		return failed(fmt.Errorf("read the customer messages: %w", err))
	}
	if p := mf.problem(); p != "" {
		res.addErrors(1, p)
	}

	var facts []Fact
	for _, k := range res.Kinds {
		if k.Timed == 0 {
			continue // a kind that only failed has no latency to show (its errors fail the run)
		}
		facts = append(facts, Fact{What: k.What + " p50", Value: k.P50, Unit: "ms"}, Fact{What: k.What + " p99", Value: k.P99, Unit: "ms"})
	}
	facts = append(facts, Fact{What: "webhook deliveries", Value: float64(arrived)})
	if !math.IsNaN(lagP50) {
		facts = append(facts, Fact{What: "webhook lag p50", Value: lagP50, Unit: "ms"})
	}
	facts = append(facts, Fact{What: "customer emails sent", Value: float64(mf.sent)},
		Fact{What: "customer emails skipped", Value: float64(mf.skipped)})
	if !math.IsNaN(mf.lagP50) {
		facts = append(facts, Fact{What: "email lag p50", Value: mf.lagP50, Unit: "ms"})
	}
	if !math.IsNaN(mf.firstP50) {
		facts = append(facts, Fact{What: "email first-attempt lag p50", Value: mf.firstP50, Unit: "ms"},
			Fact{What: "email first-attempt lag p99", Value: mf.firstP99, Unit: "ms"},
			Fact{What: "email attempt p50", Value: mf.sendP50, Unit: "ms"})
	}
	return ScenarioReport{Result: &res, Baseline: &base, Facts: facts,
		targets: []target{
			atMost("webhook lag p99", "ms", 1000, func(*ScenarioReport) float64 { return lagP99 }),
			atMost("email lag p99", "ms", 10000, func(*ScenarioReport) float64 { return mf.lagP99 }),
		}}
}

// lagPercentiles is the p50 and p99 of the commit → receipt lags in milliseconds, both
// unreadable when no delivery was timed: no lag measured is not a lag of 0 ms.
// mailWait bounds how long the day waits, after its run, for the emails due by then.
const mailWait = 30 * time.Second

func lagPercentiles(lags []time.Duration) (p50, p99 float64) {
	if len(lags) == 0 {
		return unreadable, unreadable
	}
	slices.Sort(lags)
	return millis(percentile(lags, 0.5)), millis(percentile(lags, 0.99))
}

// day is the mix's shared state: the next free grid time (in the second half of the hall grid,
// after create_booking's share) and the count of committed writes.
type day struct {
	e       *env
	next    atomic.Int64
	writes  atomic.Int64
	workers []*dayWorker
}

func (e *env) newDay() *day {
	d := &day{e: e}
	d.next.Store(e.fx.hall.half())
	for w := range e.cfg.Concurrency {
		d.workers = append(d.workers, &dayWorker{rng: rand.New(rand.NewPCG(uint64(w)+1, 15))})
	}
	return d
}

func (d *day) op() MixedOp {
	return func(ctx context.Context, w int) (string, Outcome, error) {
		dw := d.workers[w]
		kind, target := d.choose(dw, pick(dw.rng))
		var err error
		switch kind {
		case "read":
			err = d.read(ctx, dw)
		case "list":
			_, err = d.e.api.do(ctx, http.MethodGet, fmt.Sprintf("/v3/bookings?location_id=%d&per_page=30", d.e.fx.slotsLoc), nil, http.StatusOK)
		case "slots":
			day := d.e.fx.slotsDay.AddDate(0, 0, dw.rng.IntN(7)).Format(time.DateOnly)
			_, err = d.e.api.do(ctx, http.MethodGet, fmt.Sprintf("/v3/available_slots?location_id=%d&service_id=%d&start_date=%s",
				d.e.fx.slotsLoc, d.e.fx.quick, day), nil, http.StatusOK)
		case "create":
			_, _, err = d.create(ctx, dw)
		case "reschedule":
			err = d.reschedule(ctx, dw, target)
		case "cancel":
			err = d.cancel(ctx, dw, target)
		}
		return kind, Succeeded, err
	}
}

func pick(rng *rand.Rand) string {
	n := rng.IntN(1000)
	for _, m := range dayMix {
		if n < m.weight {
			return m.kind
		}
		n -= m.weight
	}
	return dayMix[0].kind
}

func (d *day) read(ctx context.Context, dw *dayWorker) error {
	path := fmt.Sprintf("/v3/services/%d", d.e.fx.quick)
	if len(dw.bookings) > 0 && dw.rng.IntN(2) == 0 {
		path = fmt.Sprintf("/v3/bookings/%d", dw.bookings[dw.rng.IntN(len(dw.bookings))].id)
	}
	_, err := d.e.api.do(ctx, http.MethodGet, path, nil, http.StatusOK)
	return err
}

// create books the next free hall time and remembers the booking.
func (d *day) create(ctx context.Context, dw *dayWorker) (int64, time.Time, error) {
	k := d.next.Add(1) - 1
	provider, start, err := d.e.fx.hall.free(k)
	if err != nil {
		return 0, start, err
	}
	_, head, err := d.e.api.send(ctx, http.MethodPost, "/v3/bookings", d.e.bookingBody(k, d.e.fx.quick, provider, start), 64<<10, http.StatusCreated)
	if err != nil {
		return 0, start, err
	}
	d.writes.Add(1)
	var created struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(head), &created); err != nil || created.ID == 0 {
		return 0, start, fmt.Errorf("POST /v3/bookings answered 201 without a booking id: %.80s", head)
	}
	dw.bookings = append(dw.bookings, ownBooking{id: created.ID})
	return created.ID, start, nil
}

// choose makes the drawn kind one the business's booking policy allows and picks the booking
// a reschedule or cancel acts on (-1 for the other kinds). The scenario is a busy day of
// customers on the public API, so it respects the merchant's policy as they must
// (app/booking/change.go): no reschedule when customers may not edit, no cancel when they may
// not cancel, and neither on a booking already rescheduled max_changes times — the policy
// refuses both then (422 restricted/max_changes). A customer who cannot change a booking books
// a new one instead. The policy is the business's own (the demo's allows 3 changes), not
// loosened for the bench: the mix then measures what a real installation serves, and every
// change it sends is valid, so any refusal is the appliance's error and fails the scenario.
func (d *day) choose(dw *dayWorker, kind string) (string, int) {
	switch {
	case kind != "reschedule" && kind != "cancel":
		return kind, -1
	case kind == "reschedule" && !d.e.fx.canEdit, kind == "cancel" && !d.e.fx.canCancel:
		return "create", -1
	}
	i := d.changeable(dw)
	if i < 0 {
		return "create", -1 // nothing of its own may be changed (yet)
	}
	return kind, i
}

// changeable picks one of the worker's bookings the policy still lets a customer reschedule
// or cancel, -1 if none.
func (d *day) changeable(dw *dayWorker) int {
	start := dw.rng.IntN(max(len(dw.bookings), 1))
	for j := range dw.bookings {
		i := (start + j) % len(dw.bookings)
		if d.e.fx.maxChanges == 0 || dw.bookings[i].changes < d.e.fx.maxChanges {
			return i
		}
	}
	return -1
}

// reschedule moves the worker's booking i to the next free hall time.
func (d *day) reschedule(ctx context.Context, dw *dayWorker, i int) error {
	id := dw.bookings[i].id
	k := d.next.Add(1) - 1
	provider, start, err := d.e.fx.hall.free(k)
	if err != nil {
		return err
	}
	body := fmt.Appendf(nil, `{"start_time":%q,"provider_id":%d}`, start.Format(time.RFC3339), provider)
	if _, err := d.e.api.do(ctx, http.MethodPatch, fmt.Sprintf("/v3/bookings/%d", id), body, http.StatusOK); err != nil {
		return err
	}
	d.writes.Add(1)
	dw.bookings[i].changes++
	return nil
}

// cancel cancels the worker's booking i and forgets it.
func (d *day) cancel(ctx context.Context, dw *dayWorker, i int) error {
	id := dw.bookings[i].id
	if _, err := d.e.api.do(ctx, http.MethodPatch, fmt.Sprintf("/v3/bookings/%d/cancel", id), nil, http.StatusNoContent); err != nil {
		return err
	}
	d.writes.Add(1)
	dw.bookings = slices.Delete(dw.bookings, i, i+1)
	return nil
}
