package bench

import (
	"crypto/hmac"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"frontdesk/app/webhook"
)

// receiver is the webhook endpoints' far side: one loopback HTTP server with a path per
// endpoint (/hook/1, /hook/2, …) that verifies every signature the way a Standard Webhooks
// library does and notes when each delivery arrived. Both webhook_fanout and its bare-POST
// baseline deliver here, so the receiver's cost is in both.
type receiver struct {
	URL string
	srv *http.Server

	mu       sync.Mutex
	keys     map[string][]byte // path → HMAC key
	paths    map[string]uint8  // path → endpoint number, in setKey order
	track    bool              // remember each delivery; off, only signatures are checked
	arrivals []arrival
	seen     map[delivery]struct{}
	dups     int64
	bad      int64
	onFirst  func(id eventKey) // called once per (event, endpoint), outside the lock
	// lag, when on, records for each first receipt how long after its event was committed it
	// arrived (the envelope's timestamp is taken inside the commit's transaction).
	lag  bool
	lags []time.Duration
}

// What the receiver remembers holds no pointers, so the garbage collector of the process the
// appliance runs in never scans it: a run remembers hundreds of thousands of deliveries, and
// maps of strings and time.Time values would make every GC cycle of the appliance walk them.

// eventKey is an event id ("evt_" and 24 characters) as a value.
type eventKey [32]byte

// keyOfEvent reports false for an id too long to keep.
func keyOfEvent(id string) (k eventKey, ok bool) {
	if len(id) > len(k) {
		return k, false
	}
	copy(k[:], id)
	return k, true
}

func (k eventKey) String() string { return strings.TrimRight(string(k[:]), "\x00") }

type delivery struct {
	id       eventKey
	endpoint uint8
}

type arrival struct {
	id eventKey
	at benchTime
}

// benchTime is an instant as the monotonic time since the process started.
type benchTime int64

var processStart = time.Now()

func benchTimeOf(t time.Time) benchTime { return benchTime(t.Sub(processStart)) }

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rc := &receiver{URL: "http://" + ln.Addr().String(), keys: map[string][]byte{}, paths: map[string]uint8{}, seen: map[delivery]struct{}{}}
	rc.srv = &http.Server{Handler: http.HandlerFunc(rc.serveHTTP), ReadHeaderTimeout: 10 * time.Second}
	go rc.srv.Serve(ln) // returns when stop shuts it down
	return rc, nil
}

// stop closes the receiver at once. Its figures are read by then, so there is nothing to wait
// for, and a graceful Shutdown would wait five seconds for any connection the dispatcher
// opened without sending a request on it yet.
func (rc *receiver) stop() { rc.srv.Close() }

// setKey registers an endpoint path with the secret its deliveries are signed with.
func (rc *receiver) setKey(path string, key []byte) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.keys[path] = key
	if _, ok := rc.paths[path]; !ok {
		rc.paths[path] = uint8(len(rc.paths))
	}
}

// reset forgets every arrival and says whether to track the next ones (the bare POST baseline
// sends unique ids by construction, and remembering hundreds of thousands of them would only
// inflate the process's RSS). onFirst, if set, is called for each first receipt.
func (rc *receiver) reset(track bool, onFirst func(id eventKey)) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.track, rc.arrivals, rc.seen, rc.dups, rc.bad, rc.onFirst = track, nil, map[delivery]struct{}{}, 0, 0, onFirst
	rc.lag, rc.lags = false, nil
}

// measureLag starts recording commit → receipt lags of first receipts (reset stops it).
func (rc *receiver) measureLag() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.lag, rc.lags = true, nil
}

// lagsSoFar returns the recorded lags.
func (rc *receiver) lagsSoFar() []time.Duration {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]time.Duration(nil), rc.lags...)
}

// results returns the first receipts so far, the repeats and the deliveries refused for a bad
// signature.
func (rc *receiver) results() (arrivals []arrival, dups, bad int64) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]arrival(nil), rc.arrivals...), rc.dups, rc.bad
}

func (rc *receiver) serveHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	id := r.Header.Get(webhook.HeaderID)
	rc.mu.Lock()
	key, endpoint := rc.keys[r.URL.Path], rc.paths[r.URL.Path]
	rc.mu.Unlock()
	ek, kept := keyOfEvent(id)
	if err != nil || key == nil || !kept || !verify(key, id, r.Header.Get(webhook.HeaderTimestamp), r.Header.Get(webhook.HeaderSignature), body, at) {
		rc.mu.Lock()
		rc.bad++
		rc.mu.Unlock()
		http.Error(w, "bad signature", http.StatusBadRequest)
		return
	}
	d := delivery{ek, endpoint}
	rc.mu.Lock()
	if !rc.track {
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	_, seen := rc.seen[d]
	first := !seen
	if first {
		rc.seen[d] = struct{}{}
		rc.arrivals = append(rc.arrivals, arrival{ek, benchTimeOf(at)})
		if rc.lag {
			var env struct {
				Timestamp time.Time `json:"timestamp"`
			}
			if json.Unmarshal(body, &env) == nil {
				rc.lags = append(rc.lags, max(0, at.Sub(env.Timestamp)))
			}
		}
	} else {
		rc.dups++
	}
	onFirst := rc.onFirst
	rc.mu.Unlock()
	if first && onFirst != nil {
		onFirst(ek)
	}
	w.WriteHeader(http.StatusNoContent)
}

// verify checks a Standard Webhooks signature header: any "v1," signature in the
// space-separated list that matches, and a timestamp within five minutes of now.
func verify(key []byte, id, ts, header string, body []byte, now time.Time) bool {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || id == "" {
		return false
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return false
	}
	want := webhook.Sign(key, id, time.Unix(sec, 0), body)
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}
