-- Refunds of collection orders. A refund is paid by a payout order of its
-- own (payout_id, set once the recipient address is known); its status
-- follows that payout's in the same transactions. Amounts are decimal TEXT
-- of base units, times Unix milliseconds.

CREATE TABLE refunds (
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
    status      TEXT    NOT NULL CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')),
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
CREATE INDEX refunds_order ON refunds (order_id, created_at);
CREATE INDEX refunds_payout ON refunds (payout_id) WHERE payout_id <> '';
CREATE INDEX refunds_merchant_sent ON refunds (merchant_id, sent_at) WHERE status = 'SUCCESS';
CREATE INDEX refunds_tx ON refunds (chain, tx_id) WHERE tx_id <> '';
