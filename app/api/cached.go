package api

import (
	"context"

	"frontdesk/db"
)

// The /v3 reads of catalog data go through the database's catalog cache (db.CatalogCache):
// the catalog version comes with the API key (authenticate reads both in one statement), so a
// cached answer costs no statement at all, and any write to the catalog, by any connection or
// process, makes the next request load afresh.

// catalogVersion is the catalog version authenticate read; ok is false outside the
// authenticated routes, where the cache must not be used.
func catalogVersion(ctx context.Context) (v int64, ok bool) {
	k, ok := ctx.Value(keyCtx).(authKey)
	return k.CatalogVersion, ok
}

// companyKey names the company row in the catalog cache.
type companyKey struct{}

// company returns the company row, from the catalog cache while the catalog is unchanged.
func (a *API) company(ctx context.Context) (db.Company, error) {
	v, cacheable := catalogVersion(ctx)
	if cacheable {
		if c, ok := a.db.Catalog().Lookup(v, companyKey{}); ok {
			return c.(db.Company), nil
		}
	}
	// Loaded after v was read, as the cache requires; one row, so without the goroutines a
	// cancellable context costs (see authenticate).
	c, err := a.db.R.GetCompany(context.WithoutCancel(ctx))
	if err == nil && cacheable {
		a.db.Catalog().Store(v, companyKey{}, c)
	}
	return c, err
}
