-- Each payout order's share of the coin its transaction cost, whatever
-- the network's gas policy: gas_amount carries the token deducted for gas
-- under fee+gas, so the coin spent needs a column of its own for the
-- dashboard's fees-against-gas figures. Empty for orders paid before.
ALTER TABLE payout_orders ADD COLUMN gas_spent TEXT NOT NULL DEFAULT '';
