// Package static holds the files the admin UI serves as they are — our CSS and small script,
// and the vendored htmx (2.0.11, BSD Zero Clause licence in htmx.LICENSE) — embedded in the
// binary. URLs carry a content hash, so browsers may cache them forever and still never run
// a stale copy after an upgrade.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
	"sync"
)

//go:embed app.css app.js htmx.min.js site.css site.js embed.js passkey.js
var files embed.FS

// Prefix is where Handler is mounted.
const Prefix = "/static/"

// versions are the files' content hashes, computed on first use rather than at start.
var versions = sync.OnceValue(func() map[string]string {
	v := map[string]string{}
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		b, _ := files.ReadFile(e.Name())
		sum := sha256.Sum256(b)
		v[e.Name()] = hex.EncodeToString(sum[:6])
	}
	return v
})

// URL returns the cache-busting URL of an embedded file, e.g. "/static/app.css?v=1a2b3c4d5e6f".
func URL(name string) string {
	return Prefix + name + "?v=" + versions()[name]
}

// Handler serves the embedded files under Prefix. A request naming the current version is
// cacheable for a year; anything else must revalidate.
func Handler() http.Handler {
	fsrv := http.StripPrefix(Prefix, http.FileServerFS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, Prefix)
		v, ok := versions()[name]
		if !ok {
			http.NotFound(w, r) // no directory listings, nothing but the embedded files
			return
		}
		if r.URL.Query().Get("v") == v {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		fsrv.ServeHTTP(w, r)
	})
}
