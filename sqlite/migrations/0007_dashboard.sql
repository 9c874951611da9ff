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
    totp_sealed   BLOB,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    CHECK ((role = 'operator') = (merchant_id = ''))
) STRICT;

CREATE INDEX users_merchant ON users (merchant_id);

-- Only the SHA-256 of a session token is kept.
CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    user_id    TEXT    NOT NULL REFERENCES users (id),
    csrf       TEXT    NOT NULL,
    ip         TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    seen_at    INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          INTEGER NOT NULL,
    user_id     TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    merchant_id TEXT    NOT NULL,
    action      TEXT    NOT NULL,
    target      TEXT    NOT NULL,
    detail      TEXT    NOT NULL,
    ip          TEXT    NOT NULL
) STRICT;

CREATE INDEX audit_log_merchant ON audit_log (merchant_id, id);

CREATE TABLE network_states (
    chain      TEXT    PRIMARY KEY,
    status     TEXT    NOT NULL CHECK (status IN ('active', 'maintenance')),
    updated_at INTEGER NOT NULL
) STRICT;
