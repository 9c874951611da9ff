-- PostgreSQL twin of sqlite/migrations/0013_network_choice.sql.

ALTER TABLE collection_orders ADD COLUMN choose TEXT NOT NULL DEFAULT '';
