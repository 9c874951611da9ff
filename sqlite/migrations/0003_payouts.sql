-- Payout lifecycle: one registration per on-chain contract, running locked
-- totals per funding pool, review, the service's own keys and the executor's
-- batches. Amounts are decimal TEXT of base units, times Unix milliseconds.

-- A (network, address) is registered once: funding pools are keyed by the
-- on-chain contract, so two registrations of one contract would double its
-- funds.
CREATE UNIQUE INDEX contracts_chain_address ON contracts (chain, address);

-- needs_review: the order waits for an operator's approval before the
-- executor takes it. exec_id: the batch execution that carries it.
-- block_number: block of the transaction that paid it.
ALTER TABLE payout_orders ADD COLUMN needs_review INTEGER NOT NULL DEFAULT 0;
ALTER TABLE payout_orders ADD COLUMN exec_id TEXT NOT NULL DEFAULT '';
ALTER TABLE payout_orders ADD COLUMN block_number INTEGER NOT NULL DEFAULT 0;
CREATE INDEX payout_orders_exec ON payout_orders (exec_id) WHERE exec_id <> '';

-- Running total of amount+fee locked by PENDING and PROCESSING orders per
-- funding pool, changed in the transaction that changes an order's status.
CREATE TABLE funding_pools (
    pool   TEXT PRIMARY KEY,
    locked TEXT NOT NULL CHECK (locked <> '' AND locked NOT GLOB '*[^0-9]*')
) STRICT;

-- Paid orders whose debit a balance read at an older block does not show
-- yet: a creation counts the rows above the block its read was made at.
CREATE TABLE funding_settles (
    order_id   TEXT    NOT NULL,
    pool       TEXT    NOT NULL,
    block      INTEGER NOT NULL,
    amount     TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    settled_at INTEGER NOT NULL,
    PRIMARY KEY (order_id, pool)
) STRICT;
CREATE INDEX funding_settles_pool ON funding_settles (pool, block);
CREATE INDEX funding_settles_at ON funding_settles (settled_at);

-- Per-merchant review policy; no row: the interface's default.
CREATE TABLE review_policies (
    merchant_id TEXT    PRIMARY KEY REFERENCES merchants (id),
    mode        TEXT    NOT NULL CHECK (mode IN ('default', 'always', 'never', 'above')),
    above       TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

-- The service's own keys per network and role (signer, executor, sweeper),
-- sealed under the master key like the merchant secrets.
CREATE TABLE service_keys (
    chain      TEXT    NOT NULL,
    role       TEXT    NOT NULL CHECK (role IN ('signer', 'executor', 'sweeper')),
    address    TEXT    NOT NULL,
    key_sealed BLOB    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (chain, role)
) STRICT;

-- Payout batch executions. nonce is the contract nonce (decimal), stored
-- before anything is sent; tx_hashes every transaction sent for it.
CREATE TABLE payout_execs (
    id          TEXT    PRIMARY KEY,
    chain       TEXT    NOT NULL,
    contract_id TEXT    NOT NULL REFERENCES contracts (id),
    contract    TEXT    NOT NULL,
    symbol      TEXT    NOT NULL,
    mode        INTEGER NOT NULL,
    from_address TEXT   NOT NULL,
    nonce       TEXT    NOT NULL CHECK (nonce <> '' AND nonce NOT GLOB '*[^0-9]*'),
    timestamp   INTEGER NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('created', 'sending', 'sent', 'done', 'failed')),
    tx_hashes   TEXT    NOT NULL,
    ambiguous   INTEGER NOT NULL,
    start_block INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    last_error  TEXT    NOT NULL,
    tx_id       TEXT    NOT NULL,
    block       INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    UNIQUE (contract, nonce)
) STRICT;
CREATE INDEX payout_execs_open ON payout_execs (state, created_at) WHERE state NOT IN ('done', 'failed');
CREATE INDEX payout_orders_executable ON payout_orders (status, needs_review, exec_id, created_at);
