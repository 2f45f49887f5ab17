package db

import (
	"context"
	"sync"
)

// maxCatalogValues bounds a CatalogCache: past it the cache starts over, which costs a reload
// of what is still in use and nothing else.
const maxCatalogValues = 4096

// CatalogCache keeps values derived from the catalog tables (the company's policy, locations,
// services, providers and what belongs to them, booking statuses; see
// migrations/00110_catalog_version.sql) for as long as the catalog version stays the same.
// Triggers raise the version on every write to those tables, from any connection or process,
// in the writing transaction itself; so a value loaded after reading version v reflects every
// write up to v, and a reader that sees a later version stops using it.
//
// Use: read the version with DB.CatalogVersion, Lookup under it, and on a miss load the
// value (after reading the version, never before) and Store it under that version. Values are
// shared by every caller: treat them as read-only.
type CatalogCache struct {
	mu      sync.Mutex
	version int64
	values  map[any]any
}

// WithCatalogVersion returns ctx carrying catalog version v, which the caller read earlier in
// the same request (the /v3 API reads it with the API key): loads through the cache under ctx
// then use v instead of spending a statement on reading it again. Only a version read before
// anything that will be loaded under ctx may be given.
func WithCatalogVersion(ctx context.Context, v int64) context.Context {
	return context.WithValue(ctx, catalogVersionKey{}, v)
}

type catalogVersionKey struct{}

// CatalogVersion returns the catalog version ctx carries (WithCatalogVersion), or reads it.
func (d *DB) CatalogVersion(ctx context.Context) (int64, error) {
	if v, ok := ctx.Value(catalogVersionKey{}).(int64); ok {
		return v, nil
	}
	return Unchanged(d, catalogVersionKey{}, func() (int64, error) { return d.R.CatalogVersion(ctx) })
}

// Catalog returns the database's cache of catalog-derived values.
func (d *DB) Catalog() *CatalogCache { return &d.catalog }

// Lookup returns the value stored under key for catalog version v.
func (c *CatalogCache) Lookup(v int64, key any) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v != c.version {
		return nil, false
	}
	value, ok := c.values[key]
	return value, ok
}

// Forget drops every value: the next lookup of each loads it again.
func (c *CatalogCache) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values = nil
}

// Store keeps value under key for catalog version v. A later version than the cache's drops
// everything stored under the older one; a value loaded under an earlier version than the
// cache's is not kept (the catalog has moved on since it was read).
func (c *CatalogCache) Store(v int64, key, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case v < c.version:
		return
	case v > c.version || c.values == nil || len(c.values) >= maxCatalogValues:
		c.version, c.values = v, map[any]any{}
	}
	c.values[key] = value
}
