-- PostgreSQL twin of sqlite/migrations/0020_refunds.sql.

CREATE TABLE refunds (
    id          TEXT    PRIMARY KEY,
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    refund_no   TEXT    NOT NULL,
    order_id    TEXT    NOT NULL REFERENCES collection_orders (id),
    order_no    TEXT    NOT NULL,
    chain       TEXT    NOT NULL,
    symbol      TEXT    NOT NULL,
    decimals    BIGINT  NOT NULL,
    amount      TEXT    NOT NULL CHECK (amount <> '' AND amount ~ '^[0-9]*$'),
    address     TEXT    NOT NULL,
    by_link     BIGINT  NOT NULL,
    payout_id   TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
    fee         TEXT    NOT NULL CHECK (fee <> '' AND fee ~ '^[0-9]*$'),
    tx_id       TEXT    NOT NULL,
    block       BIGINT  NOT NULL,
    fail_reason TEXT    NOT NULL,
    reason      TEXT    NOT NULL,
    sent_at     BIGINT,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    version     BIGINT  NOT NULL,
    UNIQUE (merchant_id, refund_no)
);
CREATE INDEX refunds_order ON refunds (order_id, created_at);
CREATE INDEX refunds_payout ON refunds (payout_id) WHERE payout_id <> '';
CREATE INDEX refunds_merchant_sent ON refunds (merchant_id, sent_at) WHERE status = 'SUCCESS';
CREATE INDEX refunds_tx ON refunds (chain, tx_id) WHERE tx_id <> '';
