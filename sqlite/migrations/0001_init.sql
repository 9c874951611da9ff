-- Initial schema. Conventions: amounts are decimal TEXT of token base units
-- (never REAL); times are INTEGER Unix milliseconds UTC, NULL when unset;
-- tables are STRICT so a wrong type is an error rather than a coercion.

CREATE TABLE merchants (
    id                 TEXT    PRIMARY KEY,
    name               TEXT    NOT NULL,
    -- The API key is kept only as its SHA-256 digest plus a short prefix an
    -- operator can recognise; the two HMAC keys are sealed (AES-256-GCM).
    api_key_hash       BLOB    NOT NULL UNIQUE,
    api_key_prefix     TEXT    NOT NULL,
    secret_key_sealed  BLOB    NOT NULL,
    webhook_key_sealed BLOB    NOT NULL,
    status             TEXT    NOT NULL,
    created_at         INTEGER NOT NULL
) STRICT;

CREATE TABLE cashiers (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    name        TEXT    NOT NULL,
    webhook_url TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX cashiers_merchant ON cashiers (merchant_id, created_at);

CREATE TABLE contracts (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    chain       TEXT    NOT NULL,
    address     TEXT    NOT NULL,
    webhook_url TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    deposit_factory        TEXT NOT NULL DEFAULT '',
    deposit_implementation TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX contracts_merchant ON contracts (merchant_id);

CREATE TABLE collection_orders (
    id              TEXT    PRIMARY KEY,
    merchant_id     TEXT    NOT NULL REFERENCES merchants (id),
    cashier_id      TEXT    NOT NULL REFERENCES cashiers (id),
    order_no        TEXT    NOT NULL,
    cust_no         TEXT    NOT NULL,
    chain           TEXT    NOT NULL,
    symbol          TEXT    NOT NULL,
    decimals        INTEGER NOT NULL,
    amount          TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    paid_amount     TEXT             CHECK (paid_amount <> '' AND paid_amount NOT GLOB '*[^0-9]*'),
    deposit_address TEXT    NOT NULL,
    redirect_url    TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    tx_id           TEXT    NOT NULL,
    from_address    TEXT    NOT NULL,
    expire_at       INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER,
    version         INTEGER NOT NULL,
    UNIQUE (merchant_id, order_no)
) STRICT;

-- The list endpoint filters by merchant, optionally status, and a created-at
-- range, newest first; workers and the operator filter by status alone.
CREATE INDEX collection_orders_merchant_created ON collection_orders (merchant_id, created_at);
CREATE INDEX collection_orders_merchant_status_created ON collection_orders (merchant_id, status, created_at);
CREATE INDEX collection_orders_status_created ON collection_orders (status, created_at);

CREATE TABLE payout_orders (
    id           TEXT    PRIMARY KEY,
    merchant_id  TEXT    NOT NULL REFERENCES merchants (id),
    contract_id  TEXT    NOT NULL REFERENCES contracts (id),
    batch_id     TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    chain        TEXT    NOT NULL,
    recipient    TEXT    NOT NULL,
    symbol       TEXT    NOT NULL,
    decimals     INTEGER NOT NULL,
    amount       TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    fee          TEXT             CHECK (fee <> '' AND fee NOT GLOB '*[^0-9]*'),
    payout_type  INTEGER NOT NULL,
    from_address TEXT    NOT NULL,
    remark       TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    tx_id        TEXT    NOT NULL,
    gas_amount   TEXT    NOT NULL,
    fail_reason  TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER,
    version      INTEGER NOT NULL,
    UNIQUE (merchant_id, order_no)
) STRICT;

CREATE INDEX payout_orders_merchant_created ON payout_orders (merchant_id, created_at);
CREATE INDEX payout_orders_merchant_status_created ON payout_orders (merchant_id, status, created_at);
CREATE INDEX payout_orders_contract_status_created ON payout_orders (contract_id, status, created_at);
CREATE INDEX payout_orders_status_created ON payout_orders (status, created_at);
CREATE INDEX payout_orders_wallet_status_created ON payout_orders (from_address, status, created_at);

-- The outbox. seq is AUTOINCREMENT so a sequence number is never reused,
-- even after the newest event is deleted: receivers may have seen it.
CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE,
    merchant_id     TEXT    NOT NULL,
    type            TEXT    NOT NULL,
    order_id        TEXT    NOT NULL,
    order_no        TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    body            BLOB    NOT NULL,
    created_at      INTEGER NOT NULL,
    state           TEXT    NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    delivered_at    INTEGER,
    lease_owner     TEXT    NOT NULL DEFAULT '',
    lease_until     INTEGER
) STRICT;

-- Claiming walks pending events; events_pending_order answers "is an
-- earlier event of this order still pending?" with one index probe.
CREATE INDEX events_pending_order ON events (order_id, seq) WHERE state = 'pending';
CREATE INDEX events_order ON events (order_id, seq);
CREATE INDEX events_merchant ON events (merchant_id, seq);
CREATE INDEX events_state ON events (state, seq);

CREATE TABLE delivery_attempts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        TEXT    NOT NULL REFERENCES events (id),
    attempt         INTEGER NOT NULL,
    at              INTEGER NOT NULL,
    http_status     INTEGER NOT NULL,
    latency_us      INTEGER NOT NULL,
    error           TEXT    NOT NULL,
    next_attempt_at INTEGER
) STRICT;

CREATE INDEX delivery_attempts_event ON delivery_attempts (event_id, id);
