-- The merchant's customer number given at payout creation (empty: none),
-- echoed as custNo in the payout's webhooks.

ALTER TABLE payout_orders ADD COLUMN cust_no TEXT NOT NULL DEFAULT '';
