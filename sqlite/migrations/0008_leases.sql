-- Leases of one-owner work among instances sharing the database (the
-- chain watchers, payout executors, sweepers, the expiry worker) and the
-- instances' own heartbeats ("instance/ID"). token is the fencing epoch,
-- raised each time a lease changes hands. Times are Unix milliseconds of
-- the instances' clocks.

CREATE TABLE leases (
    name        TEXT    PRIMARY KEY,
    holder      TEXT    NOT NULL,
    token       INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    acquired_at INTEGER NOT NULL,
    renewed_at  INTEGER NOT NULL
) STRICT;
