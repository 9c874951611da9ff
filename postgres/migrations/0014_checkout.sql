-- PostgreSQL twin of sqlite/migrations/0014_checkout.sql.

ALTER TABLE cashiers ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '';
ALTER TABLE collection_orders ADD COLUMN origin TEXT NOT NULL DEFAULT '';
