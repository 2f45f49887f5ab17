package api

import (
	"net/http"
	"sync"
)

// Answers kept by tag (docs/api.md, "Conditional requests"). A tagged route's tag is made of
// change counters that every write raising them bumps in its own transaction (etag.go), and
// two requests for the same URL with the same tag get the same answer — that is what lets a
// matching If-None-Match be answered 304. So the 200 body built for a tag can be kept and sent
// again, byte for byte, to the next request for that URL that reads the same counters: a
// polling integration without If-None-Match costs the counters' read, not the page. The first
// write that changes the answer changes the tag, and the kept body is never looked up again;
// nothing is ever served past a write that changes it.
//
// One answer is kept per exact path and query, under the tag it was built for: a lookup finds
// it only with that same tag, and the answer built for a newer tag replaces it. An answer whose
// tag a write has changed can never be sent again, so it is not kept either: a URL polled while
// bookings are made holds the one current body, not one per write until the bound pushes them
// out. Only 200 answers of GET requests that passed the key's scope check are kept. Memory is
// bounded: at most maxCachedBody per answer and maxCachedBytes in all, the oldest URL dropped
// first.

const (
	maxCachedBody  = 256 << 10
	maxCachedBytes = 8 << 20
)

type answerCache struct {
	mu     sync.Mutex
	kept   map[answerURL]keptAnswer
	order  []answerURL // oldest first
	nbytes int
}

type keptAnswer struct {
	tag  string
	body []byte
}

// get returns the answer kept for url under tag.
func (c *answerCache) get(url answerURL, tag string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.kept[url]
	if !ok || k.tag != tag {
		return nil, false
	}
	return k.body, true
}

// put keeps body as url's answer under tag, in place of any answer kept for url before.
func (c *answerCache) put(url answerURL, tag string, body []byte) {
	if len(body) > maxCachedBody {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = map[answerURL]keptAnswer{}
	}
	if old, ok := c.kept[url]; ok {
		c.nbytes -= len(old.body)
	} else {
		c.order = append(c.order, url)
	}
	c.kept[url] = keptAnswer{tag, body}
	c.nbytes += len(body)
	// The oldest URLs go first; a larger answer replacing url's may take url itself, which is
	// then only a miss.
	for c.nbytes > maxCachedBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.nbytes -= len(c.kept[oldest].body)
		delete(c.kept, oldest)
	}
}

// clear forgets every kept answer.
func (c *answerCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept, c.order, c.nbytes = nil, nil, 0
}

// answerURL is what a request's answer is kept by: its exact path and query, as the request's
// own strings, so looking an answer up builds none.
type answerURL struct{ path, query string }

// answerURLOf is request r's answerURL.
func answerURLOf(r *http.Request) answerURL { return answerURL{r.URL.Path, r.URL.RawQuery} }

// keepingWriter passes an answer through and keeps a copy of a 200 body small enough to cache.
type keepingWriter struct {
	http.ResponseWriter
	status int
	body   []byte
	tooBig bool
}

func (k *keepingWriter) WriteHeader(status int) {
	if k.status == 0 {
		k.status = status
	}
	k.ResponseWriter.WriteHeader(status)
}

func (k *keepingWriter) Write(p []byte) (int, error) {
	if k.status == 0 {
		k.status = http.StatusOK
	}
	if !k.tooBig {
		if len(k.body)+len(p) > maxCachedBody {
			k.tooBig, k.body = true, nil
		} else {
			k.body = append(k.body, p...)
		}
	}
	return k.ResponseWriter.Write(p)
}

// kept returns the body to cache, if the answer was a complete 200 small enough to keep.
func (k *keepingWriter) kept() ([]byte, bool) {
	return k.body, k.status == http.StatusOK && !k.tooBig && len(k.body) > 0
}
