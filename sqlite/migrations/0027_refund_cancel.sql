-- A refund link the merchant withdraws before the customer gives an
-- address ends CANCELLED. SQLite cannot change a CHECK constraint, so the
-- table is built again with the new status allowed, rows and indexes as
-- they were (no table refers to refunds).

CREATE TABLE refunds_new (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    refund_no   TEXT    NOT NULL,
    order_id    TEXT    NOT NULL REFERENCES collection_orders (id),
    order_no    TEXT    NOT NULL,
    chain       TEXT    NOT NULL,
    symbol      TEXT    NOT NULL,
    decimals    INTEGER NOT NULL,
    amount      TEXT    NOT NULL CHECK (amount <> '' AND amount NOT GLOB '*[^0-9]*'),
    address     TEXT    NOT NULL,
    by_link     INTEGER NOT NULL,
    payout_id   TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'PROCESSING', 'SUCCESS', 'FAILED', 'CANCELLED')),
    fee         TEXT    NOT NULL CHECK (fee <> '' AND fee NOT GLOB '*[^0-9]*'),
    tx_id       TEXT    NOT NULL,
    block       INTEGER NOT NULL,
    fail_reason TEXT    NOT NULL,
    reason      TEXT    NOT NULL,
    sent_at     INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    UNIQUE (merchant_id, refund_no)
) STRICT;
INSERT INTO refunds_new SELECT * FROM refunds;
DROP TABLE refunds;
ALTER TABLE refunds_new RENAME TO refunds;
CREATE INDEX refunds_order ON refunds (order_id, created_at);
CREATE INDEX refunds_payout ON refunds (payout_id) WHERE payout_id <> '';
CREATE INDEX refunds_merchant_sent ON refunds (merchant_id, sent_at) WHERE status = 'SUCCESS';
CREATE INDEX refunds_tx ON refunds (chain, tx_id) WHERE tx_id <> '';
