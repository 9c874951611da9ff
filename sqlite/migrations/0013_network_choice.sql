-- The customer's choice of network and token: what the customer may still
-- choose on the payment page ('' for an order fixed at creation, else
-- 'chain', 'token' or 'chain,token'). Until the customer chooses, the
-- order keeps the preselected network and token and has no deposit
-- address ('').

ALTER TABLE collection_orders ADD COLUMN choose TEXT NOT NULL DEFAULT '';
