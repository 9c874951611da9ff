-- Results shown on one page view only (SQLite's 0026).

CREATE TABLE one_time_views (
    token_hash BYTEA  PRIMARY KEY,
    session    BYTEA  NOT NULL,
    body       BYTEA  NOT NULL,
    until_at   BIGINT NOT NULL
);
