-- Collections that complete: received transfers, watcher cursors, and the
-- indexes the chain watcher and the expiry worker read through.

ALTER TABLE collection_orders ADD COLUMN pay_time INTEGER;

-- The watcher looks up the orders of the addresses a block range paid,
-- never the other way round, so its cost follows blocks, not open orders.
CREATE INDEX collection_orders_address ON collection_orders (chain, deposit_address);

-- Expiry reads the soonest PENDING expiries only.
CREATE INDEX collection_orders_status_expiry ON collection_orders (status, expire_at);

-- One row per received transfer, whatever it did to its order.
CREATE TABLE payments (
    chain        TEXT    NOT NULL,
    tx_hash      TEXT    NOT NULL,
    log_index    INTEGER NOT NULL CHECK (log_index >= 0),
    order_id     TEXT    NOT NULL REFERENCES collection_orders (id),
    merchant_id  TEXT    NOT NULL,
    token        TEXT    NOT NULL,
    symbol       TEXT    NOT NULL,
    decimals     INTEGER NOT NULL,
    from_address TEXT    NOT NULL,
    to_address   TEXT    NOT NULL,
    amount       TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    block_number INTEGER NOT NULL,
    block_hash   TEXT    NOT NULL,
    block_time   INTEGER,
    status       TEXT    NOT NULL CHECK (status IN ('SEEN', 'CONFIRMED', 'DROPPED')),
    effect       TEXT    NOT NULL,
    seen_at      INTEGER NOT NULL,
    confirmed_at INTEGER,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (chain, tx_hash, log_index)
) STRICT;

CREATE INDEX payments_order ON payments (order_id, block_number, log_index);
CREATE INDEX payments_seen ON payments (chain, block_number) WHERE status = 'SEEN';

CREATE TABLE chain_cursors (
    chain          TEXT    PRIMARY KEY,
    confirmed      INTEGER NOT NULL,
    confirmed_hash TEXT    NOT NULL,
    head           INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;
