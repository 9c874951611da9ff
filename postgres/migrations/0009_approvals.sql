-- PostgreSQL twin of sqlite/migrations/0009_approvals.sql.

-- Token approvals granted to the registered payout contracts, recorded once
-- per (chain, tx_hash, log_index) when confirmed, and the allowance each
-- (token, owner, spender) stands at: the newest approval's value and what
-- this service's payouts took since. Never delivered to merchants.

CREATE TABLE token_approvals (
    chain       TEXT    NOT NULL,
    tx_hash     TEXT    NOT NULL,
    log_index   BIGINT NOT NULL,
    token       TEXT    NOT NULL,
    owner       TEXT    NOT NULL,
    spender     TEXT    NOT NULL,
    value       TEXT    NOT NULL CHECK (value <> '' AND value ~ '^[0-9]*$'),
    block       BIGINT NOT NULL,
    block_hash  TEXT    NOT NULL,
    block_time  BIGINT,
    recorded_at BIGINT NOT NULL,
    PRIMARY KEY (chain, tx_hash, log_index)
);

-- checked = 0: a new approval whose pending allowance-mode orders have not
-- been held against it yet.
CREATE TABLE allowances (
    chain      TEXT    NOT NULL,
    token      TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    spender    TEXT    NOT NULL,
    symbol     TEXT    NOT NULL,
    approved   TEXT    NOT NULL CHECK (approved <> '' AND approved ~ '^[0-9]*$'),
    spent      TEXT    NOT NULL CHECK (spent <> '' AND spent ~ '^[0-9]*$'),
    tx_hash    TEXT    NOT NULL,
    log_index  BIGINT NOT NULL,
    block      BIGINT NOT NULL,
    block_time BIGINT,
    checked    BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (chain, token, owner, spender)
);
CREATE INDEX allowances_spender ON allowances (chain, spender, symbol, owner);
CREATE INDEX allowances_unchecked ON allowances (chain, checked);

-- Transactions signed for a payout execution on a network whose client
-- keeps no journal of its own (TRON), recorded before they are broadcast:
-- the same bytes are sent again or looked up by tx_id until confirmed or
-- provably expired (expiration, Unix ms) before another is signed.
CREATE TABLE signed_sends (
    exec_id    TEXT    NOT NULL REFERENCES payout_execs (id),
    tx_id      TEXT    NOT NULL,
    raw        BYTEA    NOT NULL,
    expiration BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (exec_id, tx_id)
);
