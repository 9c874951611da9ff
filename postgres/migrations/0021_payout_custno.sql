-- PostgreSQL twin of sqlite/migrations/0021_payout_custno.sql.

ALTER TABLE payout_orders ADD COLUMN cust_no TEXT NOT NULL DEFAULT '';
