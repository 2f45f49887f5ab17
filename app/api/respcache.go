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
// The key is the tag and the exact path and query (not the tag's hash of them), and only 200
// answers of GET requests that passed the key's scope check are kept. Memory is bounded: at most
// maxCachedBody per answer and maxCachedBytes in all, the oldest dropped first.

const (
	maxCachedBody  = 256 << 10
	maxCachedBytes = 8 << 20
)

type answerCache struct {
	mu     sync.Mutex
	bodies map[answerKey][]byte
	order  []answerKey // oldest first
	bytes  int
}

func (c *answerCache) get(key answerKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.bodies[key]
	return b, ok
}

func (c *answerCache) put(key answerKey, body []byte) {
	if len(body) > maxCachedBody {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies == nil {
		c.bodies = map[answerKey][]byte{}
	}
	if _, ok := c.bodies[key]; ok {
		return
	}
	for c.bytes+len(body) > maxCachedBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.bodies[oldest])
		delete(c.bodies, oldest)
	}
	c.bodies[key] = body
	c.order = append(c.order, key)
	c.bytes += len(body)
}

// clear forgets every kept answer.
func (c *answerCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bodies, c.order, c.bytes = nil, nil, 0
}

// answerKey is a kept answer's key: the tag, the path and the query as sent. Its parts are the
// request's own strings, so looking an answer up builds none.
type answerKey struct{ tag, path, query string }

// answerKeyOf is the key of request r under tag.
func answerKeyOf(r *http.Request, tag string) answerKey {
	return answerKey{tag, r.URL.Path, r.URL.RawQuery}
}

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
