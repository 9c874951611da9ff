-- A refund link the merchant withdraws ends CANCELLED (SQLite's 0027).

ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
    CHECK (status IN ('AWAITING_ADDRESS', 'PENDING', 'PROCESSING', 'SUCCESS', 'FAILED', 'CANCELLED'));
