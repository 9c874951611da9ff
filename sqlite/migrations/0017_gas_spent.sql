-- Under the gas policy fee+gas, gas_amount is the token the contract
-- deducted for gas, and gas_spent the order's share of the coin its
-- transaction cost (the dashboard's fees against gas); empty under the
-- policy fee, where gas_amount is that coin share.
ALTER TABLE payout_orders ADD COLUMN gas_spent TEXT NOT NULL DEFAULT '';
