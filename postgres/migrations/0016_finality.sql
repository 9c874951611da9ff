-- PostgreSQL twin of sqlite/migrations/0016_finality.sql.
-- Reorgs deeper than the confirmations: a credited payment whose block was
-- replaced and whose transfer is not on the new chain is marked (reorged_at,
-- cleared when it is found again), and its order is flagged for the
-- operator, for good: its credit is never taken back silently.

ALTER TABLE payments ADD COLUMN reorged_at BIGINT;
ALTER TABLE collection_orders ADD COLUMN reorged_at BIGINT;

-- The watcher re-checks the blocks of recent credited payments after a
-- deep reorg, newest first, and lists the missing ones every round.
CREATE INDEX payments_confirmed ON payments (chain, block_number) WHERE status = 'CONFIRMED';
CREATE INDEX payments_reorged ON payments (chain) WHERE reorged_at IS NOT NULL;
CREATE INDEX collection_orders_reorged ON collection_orders (chain) WHERE reorged_at IS NOT NULL;
