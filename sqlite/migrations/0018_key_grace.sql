-- A rotated API key and its secret stay valid for a grace period so a
-- merchant can switch its callers without an outage: the previous key's
-- digest, prefix and sealed secret move here, with the moment it stops
-- working (Unix milliseconds). NULL digest: no previous key. One previous
-- key at most: a second rotation within the grace ends the first one's.

ALTER TABLE merchants ADD COLUMN prev_api_key_hash BLOB;
ALTER TABLE merchants ADD COLUMN prev_api_key_prefix TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN prev_secret_key_sealed BLOB;
ALTER TABLE merchants ADD COLUMN prev_key_until INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX merchants_prev_api_key_hash ON merchants (prev_api_key_hash);
