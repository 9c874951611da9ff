-- Results shown on one page view only (a key rotation's new keys), kept in
-- the database so that the view after the redirect may reach any instance.
-- The body is sealed with the master key; a row lives until its view or a
-- few minutes.

CREATE TABLE one_time_views (
    token_hash BLOB    PRIMARY KEY,
    session    BLOB    NOT NULL,
    body       BLOB    NOT NULL,
    until_at   INTEGER NOT NULL
) STRICT;
