-- The time of the block a watcher cursor stands on (Unix ms; NULL until
-- the watcher next records one): an order expires only once its network
-- has been scanned and confirmed past its expiry.
ALTER TABLE chain_cursors ADD COLUMN confirmed_time BIGINT;
