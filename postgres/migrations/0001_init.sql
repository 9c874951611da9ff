-- PostgreSQL schema, equal to SQLite's migrations 0001-0007 (sqlite/migrations):
-- the same tables, columns, constraints and indexes, in PostgreSQL's types.
-- A new SQLite migration gets its twin here (TestSchemaMatchesSQLite
-- compares the two). Differences: INTEGER is BIGINT, BLOB is BYTEA; the
-- AUTOINCREMENT keys are identity columns; the digit checks use a regular
-- expression instead of GLOB; the tables the store lists in insertion
-- order carry an explicit rowid identity column (SQLite has one
-- implicitly); the numeric identities come from a BEFORE INSERT trigger
-- (MAX + 1 is safe: every write transaction holds the store's write lock);
-- events.claim_host is a STORED generated column.

-- Initial schema. Conventions: amounts are decimal TEXT of token base units
-- (never REAL); times are BIGINT Unix milliseconds UTC, NULL when unset;
-- columns are typed, so a wrong type is an error rather than a coercion.

CREATE TABLE merchants (
    id                 TEXT    PRIMARY KEY,
    name               TEXT    NOT NULL,
    -- The API key is kept only as its SHA-256 digest plus a short prefix an
    -- operator can recognise; the two HMAC keys are sealed (AES-256-GCM).
    api_key_hash       BYTEA    NOT NULL UNIQUE,
    api_key_prefix     TEXT    NOT NULL,
    secret_key_sealed  BYTEA    NOT NULL,
    webhook_key_sealed BYTEA    NOT NULL,
    status             TEXT    NOT NULL,
    created_at         BIGINT NOT NULL
);

CREATE TABLE cashiers (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    name        TEXT    NOT NULL,
    webhook_url TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX cashiers_merchant ON cashiers (merchant_id, created_at);

CREATE TABLE contracts (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    chain       TEXT    NOT NULL,
    address     TEXT    NOT NULL,
    webhook_url TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  BIGINT NOT NULL,
    deposit_factory        TEXT NOT NULL DEFAULT '',
    deposit_implementation TEXT NOT NULL DEFAULT ''
);

CREATE INDEX contracts_merchant ON contracts (merchant_id);

CREATE TABLE collection_orders (
    id              TEXT    PRIMARY KEY,
    merchant_id     TEXT    NOT NULL REFERENCES merchants (id),
    cashier_id      TEXT    NOT NULL REFERENCES cashiers (id),
    order_no        TEXT    NOT NULL,
    cust_no         TEXT    NOT NULL,
    chain           TEXT    NOT NULL,
    symbol          TEXT    NOT NULL,
    decimals        BIGINT NOT NULL,
    amount          TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    paid_amount     TEXT             CHECK (paid_amount <> '' AND paid_amount ~ '^[0-9]*$'),
    deposit_address TEXT    NOT NULL,
    redirect_url    TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    tx_id           TEXT    NOT NULL,
    from_address    TEXT    NOT NULL,
    expire_at       BIGINT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT,
    version         BIGINT NOT NULL,
    UNIQUE (merchant_id, order_no)
);

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
    decimals     BIGINT NOT NULL,
    amount       TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    fee          TEXT             CHECK (fee <> '' AND fee ~ '^[0-9]*$'),
    payout_type  BIGINT NOT NULL,
    from_address TEXT    NOT NULL,
    remark       TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    tx_id        TEXT    NOT NULL,
    gas_amount   TEXT    NOT NULL,
    fail_reason  TEXT    NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT,
    version      BIGINT NOT NULL,
    UNIQUE (merchant_id, order_no)
);

CREATE INDEX payout_orders_merchant_created ON payout_orders (merchant_id, created_at);
CREATE INDEX payout_orders_merchant_status_created ON payout_orders (merchant_id, status, created_at);
CREATE INDEX payout_orders_contract_status_created ON payout_orders (contract_id, status, created_at);
CREATE INDEX payout_orders_status_created ON payout_orders (status, created_at);
CREATE INDEX payout_orders_wallet_status_created ON payout_orders (from_address, status, created_at);

-- The outbox. seq is AUTOINCREMENT so a sequence number is never reused,
-- even after the newest event is deleted: receivers may have seen it.
CREATE TABLE events (
    seq             BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    id              TEXT    NOT NULL UNIQUE,
    merchant_id     TEXT    NOT NULL,
    type            TEXT    NOT NULL,
    order_id        TEXT    NOT NULL,
    order_no        TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    body            BYTEA    NOT NULL,
    created_at      BIGINT NOT NULL,
    state           TEXT    NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    delivered_at    BIGINT,
    lease_owner     TEXT    NOT NULL DEFAULT '',
    lease_until     BIGINT 
);

-- Claiming walks pending events; events_pending_order answers "is an
-- earlier event of this order still pending?" with one index probe.
CREATE INDEX events_pending_order ON events (order_id, seq) WHERE state = 'pending';
CREATE INDEX events_order ON events (order_id, seq);
CREATE INDEX events_merchant ON events (merchant_id, seq);
CREATE INDEX events_state ON events (state, seq);

CREATE TABLE delivery_attempts (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    event_id        TEXT    NOT NULL REFERENCES events (id),
    attempt         BIGINT NOT NULL,
    at              BIGINT NOT NULL,
    http_status     BIGINT NOT NULL,
    latency_us      BIGINT NOT NULL,
    error           TEXT    NOT NULL,
    next_attempt_at BIGINT 
);

CREATE INDEX delivery_attempts_event ON delivery_attempts (event_id, id);

-- Collections that complete: received transfers, watcher cursors, and the
-- indexes the chain watcher and the expiry worker read through.

ALTER TABLE collection_orders ADD COLUMN pay_time BIGINT ;

-- The watcher looks up the orders of the addresses a block range paid,
-- never the other way round, so its cost follows blocks, not open orders.
CREATE INDEX collection_orders_address ON collection_orders (chain, deposit_address);

-- Expiry reads the soonest PENDING expiries only.
CREATE INDEX collection_orders_status_expiry ON collection_orders (status, expire_at);

-- One row per received transfer, whatever it did to its order.
CREATE TABLE payments (
    chain        TEXT    NOT NULL,
    tx_hash      TEXT    NOT NULL,
    log_index    BIGINT NOT NULL CHECK (log_index >= 0),
    order_id     TEXT    NOT NULL REFERENCES collection_orders (id),
    merchant_id  TEXT    NOT NULL,
    token        TEXT    NOT NULL,
    symbol       TEXT    NOT NULL,
    decimals     BIGINT NOT NULL,
    from_address TEXT    NOT NULL,
    to_address   TEXT    NOT NULL,
    amount       TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    block_number BIGINT NOT NULL,
    block_hash   TEXT    NOT NULL,
    block_time   BIGINT,
    status       TEXT    NOT NULL CHECK (status IN ('SEEN', 'CONFIRMED', 'DROPPED')),
    effect       TEXT    NOT NULL,
    seen_at      BIGINT NOT NULL,
    confirmed_at BIGINT,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (chain, tx_hash, log_index)
);

CREATE INDEX payments_order ON payments (order_id, block_number, log_index);
CREATE INDEX payments_seen ON payments (chain, block_number) WHERE status = 'SEEN';

CREATE TABLE chain_cursors (
    chain          TEXT    PRIMARY KEY,
    confirmed      BIGINT NOT NULL,
    confirmed_hash TEXT    NOT NULL,
    head           BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

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
ALTER TABLE payout_orders ADD COLUMN needs_review BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payout_orders ADD COLUMN exec_id TEXT NOT NULL DEFAULT '';
ALTER TABLE payout_orders ADD COLUMN block_number BIGINT NOT NULL DEFAULT 0;
CREATE INDEX payout_orders_exec ON payout_orders (exec_id) WHERE exec_id <> '';

-- Running total of amount+fee locked by PENDING and PROCESSING orders per
-- funding pool, changed in the transaction that changes an order's status.
CREATE TABLE funding_pools (
    pool   TEXT PRIMARY KEY,
    locked TEXT NOT NULL CHECK (locked <> '' AND locked ~ '^[0-9]*$')
);

-- Paid orders whose debit a balance read at an older block does not show
-- yet: a creation counts the rows above the block its read was made at.
CREATE TABLE funding_settles (
    order_id   TEXT    NOT NULL,
    pool       TEXT    NOT NULL,
    block      BIGINT NOT NULL,
    amount     TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    settled_at BIGINT NOT NULL,
    PRIMARY KEY (order_id, pool)
);
CREATE INDEX funding_settles_pool ON funding_settles (pool, block);
CREATE INDEX funding_settles_at ON funding_settles (settled_at);

-- Per-merchant review policy; no row: the interface's default.
CREATE TABLE review_policies (
    merchant_id TEXT    PRIMARY KEY REFERENCES merchants (id),
    mode        TEXT    NOT NULL CHECK (mode IN ('default', 'always', 'never', 'above')),
    above       TEXT    NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- The service's own keys per network and role (signer, executor, sweeper),
-- sealed under the master key like the merchant secrets.
CREATE TABLE service_keys (
    chain      TEXT    NOT NULL,
    role       TEXT    NOT NULL CHECK (role IN ('signer', 'executor', 'sweeper')),
    address    TEXT    NOT NULL,
    key_sealed BYTEA    NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (chain, role)
);

-- Payout batch executions. nonce is the contract nonce (decimal), stored
-- before anything is sent; tx_hashes every transaction sent for it.
CREATE TABLE payout_execs (
    id          TEXT    PRIMARY KEY,
    chain       TEXT    NOT NULL,
    contract_id TEXT    NOT NULL REFERENCES contracts (id),
    contract    TEXT    NOT NULL,
    symbol      TEXT    NOT NULL,
    mode        BIGINT NOT NULL,
    from_address TEXT   NOT NULL,
    nonce       TEXT    NOT NULL CHECK (nonce <> '' AND nonce ~ '^[0-9]*$'),
    timestamp   BIGINT NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('created', 'sending', 'sent', 'done', 'failed')),
    tx_hashes   TEXT    NOT NULL,
    ambiguous   BIGINT NOT NULL,
    start_block BIGINT NOT NULL,
    attempts    BIGINT NOT NULL,
    last_error  TEXT    NOT NULL,
    tx_id       TEXT    NOT NULL,
    block       BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    UNIQUE (contract, nonce)
);
CREATE INDEX payout_execs_open ON payout_execs (state, created_at) WHERE state NOT IN ('done', 'failed');
CREATE INDEX payout_orders_executable ON payout_orders (status, needs_review, exec_id, created_at);

-- Compatibility with the provider's clients and receivers (issue 9).

-- Numeric identities beside the string ids: typed webhook bodies carry the
-- provider's documented number types (collection id Long, cashierId and
-- contractId Integer). One per table, 1, 2, 3, … in insertion order, never
-- changed; rows are never deleted, so MAX + 1 never reuses a number. The
-- string ids stay the identity of the API.

ALTER TABLE cashiers ADD COLUMN num BIGINT;
ALTER TABLE contracts ADD COLUMN num BIGINT;
ALTER TABLE collection_orders ADD COLUMN num BIGINT;
ALTER TABLE payout_orders ADD COLUMN num BIGINT;

CREATE UNIQUE INDEX cashiers_num ON cashiers (num);
CREATE UNIQUE INDEX contracts_num ON contracts (num);
CREATE UNIQUE INDEX collection_orders_num ON collection_orders (num);
CREATE UNIQUE INDEX payout_orders_num ON payout_orders (num);

CREATE FUNCTION next_num() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.num IS NULL THEN
        EXECUTE format('SELECT coalesce(max(num), 0) + 1 FROM %I', TG_TABLE_NAME) INTO NEW.num;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER cashiers_num BEFORE INSERT ON cashiers FOR EACH ROW EXECUTE FUNCTION next_num();
CREATE TRIGGER contracts_num BEFORE INSERT ON contracts FOR EACH ROW EXECUTE FUNCTION next_num();
CREATE TRIGGER collection_orders_num BEFORE INSERT ON collection_orders FOR EACH ROW EXECUTE FUNCTION next_num();
CREATE TRIGGER payout_orders_num BEFORE INSERT ON payout_orders FOR EACH ROW EXECUTE FUNCTION next_num();

-- Fair webhook claims: the host (and port) of an event's URL, so a claim
-- can take events round-robin across receiving hosts instead of oldest
-- first across all of them (one hanging host with thousands of events
-- would otherwise fill every claim).
ALTER TABLE events ADD COLUMN claim_host TEXT GENERATED ALWAYS AS (
    lower(split_part(split_part(url, '://', 2), '/', 1))) STORED;

-- SQLite's implicit rowid, where the store orders by it.
ALTER TABLE cashiers ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE contracts ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE collection_orders ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE payout_orders ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
ALTER TABLE payout_execs ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
-- Sweeps of deposit addresses into the merchants' payout contracts: each
-- recorded before it is sent, with the addresses it covers.

CREATE TABLE sweeps (
    id         TEXT    PRIMARY KEY,
    chain      TEXT    NOT NULL,
    factory    TEXT    NOT NULL,
    token      TEXT    NOT NULL,
    amount     TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    status     TEXT    NOT NULL CHECK (status IN ('PREPARED', 'SENT', 'DONE', 'FAILED')),
    tx_hash    TEXT    NOT NULL DEFAULT '',
    error      TEXT    NOT NULL DEFAULT '',
    attempts   BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- At most one sweep in flight per factory and token: a second one could
-- only race the first for the same balances.
CREATE UNIQUE INDEX sweeps_in_flight ON sweeps (chain, factory, token) WHERE status IN ('PREPARED', 'SENT');

CREATE TABLE sweep_items (
    sweep_id TEXT NOT NULL REFERENCES sweeps (id),
    order_id TEXT NOT NULL REFERENCES collection_orders (id),
    address  TEXT NOT NULL,
    amount   TEXT NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    PRIMARY KEY (sweep_id, address)
);

CREATE INDEX sweep_items_address ON sweep_items (address);

-- Dashboard accounts, sessions, the audit log of dashboard changes, and
-- operators' network status overrides.

CREATE TABLE users (
    id            TEXT    PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE,
    -- Empty for operators, who belong to no merchant.
    merchant_id   TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('owner', 'developer', 'reviewer', 'viewer', 'operator')),
    password_hash TEXT    NOT NULL,
    -- TOTP secret sealed like the merchant keys; NULL: no second factor.
    totp_sealed   BYTEA,
    disabled      BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    CHECK ((role = 'operator') = (merchant_id = ''))
);

CREATE INDEX users_merchant ON users (merchant_id);

-- Only the SHA-256 of a session token is kept.
CREATE TABLE sessions (
    token_hash BYTEA    PRIMARY KEY,
    user_id    TEXT    NOT NULL REFERENCES users (id),
    csrf       TEXT    NOT NULL,
    ip         TEXT    NOT NULL,
    created_at BIGINT NOT NULL,
    seen_at    BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE audit_log (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    at          BIGINT NOT NULL,
    user_id     TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    merchant_id TEXT    NOT NULL,
    action      TEXT    NOT NULL,
    target      TEXT    NOT NULL,
    detail      TEXT    NOT NULL,
    ip          TEXT    NOT NULL
);

CREATE INDEX audit_log_merchant ON audit_log (merchant_id, id);

CREATE TABLE network_states (
    chain      TEXT    PRIMARY KEY,
    status     TEXT    NOT NULL CHECK (status IN ('active', 'maintenance')),
    updated_at BIGINT NOT NULL
);
