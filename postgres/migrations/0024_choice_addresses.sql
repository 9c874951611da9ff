-- PostgreSQL twin of sqlite/migrations/0024_choice_addresses.sql.

CREATE TABLE collection_addresses (
    chain    TEXT NOT NULL,
    address  TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES collection_orders (id),
    PRIMARY KEY (chain, address)
);
