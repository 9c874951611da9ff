-- Sweeps of deposit addresses into the merchants' payout contracts: each
-- recorded before it is sent, with the addresses it covers.

CREATE TABLE sweeps (
    id         TEXT    PRIMARY KEY,
    chain      TEXT    NOT NULL,
    factory    TEXT    NOT NULL,
    token      TEXT    NOT NULL,
    amount     TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    status     TEXT    NOT NULL CHECK (status IN ('PREPARED', 'SENT', 'DONE', 'FAILED')),
    tx_hash    TEXT    NOT NULL DEFAULT '',
    error      TEXT    NOT NULL DEFAULT '',
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- At most one sweep in flight per factory and token: a second one could
-- only race the first for the same balances.
CREATE UNIQUE INDEX sweeps_in_flight ON sweeps (chain, factory, token) WHERE status IN ('PREPARED', 'SENT');

CREATE TABLE sweep_items (
    sweep_id TEXT NOT NULL REFERENCES sweeps (id),
    order_id TEXT NOT NULL REFERENCES collection_orders (id),
    address  TEXT NOT NULL,
    amount   TEXT NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    PRIMARY KEY (sweep_id, address)
) STRICT;

CREATE INDEX sweep_items_address ON sweep_items (address);
