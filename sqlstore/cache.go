package sqlstore

import (
	"context"
	"crypto/sha256"
	"slices"
	"sync"
	"time"

	"github.com/stablecashier/cashier"
)

// Cached lookups. Every API request looks up its merchant by API key (and
// opens two sealed secrets), most look up a cashier or the merchant's
// contracts; these rows change rarely. DB keeps them in memory:
//
//   - Within this process the cache is exact: the writer watches every row
//     written to merchants, cashiers and contracts (Dialect.WatchWrites,
//     so it sees writes by any Tx method, present or future) and
//     empties the cache after the commit, before the writing Update
//     returns. A lookup that read the database before that point does not
//     store its result (generation check), so no stale row outlives it.
//   - Another process writing the same file (the CLI changing a cashier
//     while serve runs) is not seen by the hook: an entry is trusted for
//     Options.CacheTTL (1 s by default) and then read again.
//
// Lookups inside Update go to the transaction, never to the cache.

// cachedTables are the tables whose writes empty the cache.
var cachedTables = map[string]bool{"merchants": true, "cashiers": true, "contracts": true}

// cacheLimit bounds each map; beyond it the map starts over.
const cacheLimit = 10_000

type cacheEntry[T any] struct {
	v  T
	at time.Time
}

type lookupCache struct {
	ttl time.Duration // 0: off
	now func() time.Time

	mu        sync.Mutex
	gen       uint64
	byKey     map[[sha256.Size]byte]cacheEntry[cashier.Merchant]
	merchants map[string]cacheEntry[cashier.Merchant]
	cashiers  map[string]cacheEntry[cashier.Cashier]
	contracts map[string]cacheEntry[cashier.Contract]
	byOwner   map[string]cacheEntry[[]cashier.Contract] // contracts by merchant
}

func newLookupCache(ttl time.Duration) *lookupCache {
	c := &lookupCache{ttl: ttl, now: time.Now}
	c.reset()
	return c
}

func (c *lookupCache) reset() {
	c.byKey = map[[sha256.Size]byte]cacheEntry[cashier.Merchant]{}
	c.merchants = map[string]cacheEntry[cashier.Merchant]{}
	c.cashiers = map[string]cacheEntry[cashier.Cashier]{}
	c.contracts = map[string]cacheEntry[cashier.Contract]{}
	c.byOwner = map[string]cacheEntry[[]cashier.Contract]{}
}

// invalidate empties the cache and makes lookups in flight discard what
// they read.
func (c *lookupCache) invalidate() {
	c.mu.Lock()
	c.gen++
	c.reset()
	c.mu.Unlock()
}

// cached returns a fresh entry of m under key, or loads it with load and
// stores it unless the cache was invalidated meanwhile. The caller copies
// the value it hands out.
func cached[K comparable, T any](c *lookupCache, m *map[K]cacheEntry[T], key K, load func() (T, error)) (T, error) {
	if c.ttl <= 0 {
		return load()
	}
	c.mu.Lock()
	e, ok := (*m)[key]
	gen := c.gen
	c.mu.Unlock()
	now := c.now()
	if ok && now.Sub(e.at) < c.ttl {
		return e.v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.gen == gen {
		if len(*m) >= cacheLimit {
			clear(*m)
		}
		(*m)[key] = cacheEntry[T]{v, now}
	}
	c.mu.Unlock()
	return v, nil
}

// cachedCopy is cached for lookups that return a pointer: the cache keeps
// the value and every caller gets its own copy, so no caller can change
// what another reads.
func cachedCopy[K comparable, T any](c *lookupCache, m *map[K]cacheEntry[T], key K, load func() (*T, error)) (*T, error) {
	v, err := cached(c, m, key, func() (T, error) {
		p, err := load()
		if err != nil {
			var zero T
			return zero, err
		}
		return *p, nil
	})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (db *DB) Merchant(ctx context.Context, id string) (*cashier.Merchant, error) {
	return cachedCopy(db.cache, &db.cache.merchants, id, func() (*cashier.Merchant, error) { return db.reader.Merchant(ctx, id) })
}

func (db *DB) MerchantByAPIKey(ctx context.Context, apiKey string) (*cashier.Merchant, error) {
	if apiKey == "" {
		return db.reader.MerchantByAPIKey(ctx, apiKey)
	}
	return cachedCopy(db.cache, &db.cache.byKey, apiKeyHash(apiKey), func() (*cashier.Merchant, error) { return db.reader.MerchantByAPIKey(ctx, apiKey) })
}

func (db *DB) Cashier(ctx context.Context, id string) (*cashier.Cashier, error) {
	return cachedCopy(db.cache, &db.cache.cashiers, id, func() (*cashier.Cashier, error) { return db.reader.Cashier(ctx, id) })
}

func (db *DB) Contract(ctx context.Context, id string) (*cashier.Contract, error) {
	return cachedCopy(db.cache, &db.cache.contracts, id, func() (*cashier.Contract, error) { return db.reader.Contract(ctx, id) })
}

func (db *DB) ContractsByMerchant(ctx context.Context, merchantID string) ([]cashier.Contract, error) {
	cs, err := cached(db.cache, &db.cache.byOwner, merchantID, func() ([]cashier.Contract, error) {
		return db.reader.ContractsByMerchant(ctx, merchantID)
	})
	if err != nil {
		return nil, err
	}
	return slices.Clone(cs), nil
}

// watchTable is called by the dialect's write watcher (Dialect.WatchWrites)
// for every row written: it notes writes to the cached tables of the
// current group.
func (w *groupWriter) watchTable(table string) {
	if cachedTables[table] {
		w.touched = true
	}
}
