-- The nonce journal of the service's EVM sending accounts (executors,
-- sweepers) in the shared store, used when the store is PostgreSQL so
-- that an instance on another host taking over a lease finds the sends
-- signed by the last holder (an instance's data directory holds only
-- what it can lose). One row per signed transaction; a send's rows are
-- settled together. seq keeps the order of recording.
CREATE TABLE tx_journal (
    chain_id   INTEGER NOT NULL,
    account    TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    send       TEXT    NOT NULL,
    nonce      INTEGER NOT NULL,
    raw        BLOB    NOT NULL,
    tip_cap    TEXT    NOT NULL,
    fee_cap    TEXT    NOT NULL,
    signed_at  INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    settled    INTEGER NOT NULL DEFAULT 0,
    mined      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (chain_id, account, hash)
) STRICT;

CREATE INDEX tx_journal_open ON tx_journal (chain_id, account, settled, seq);
