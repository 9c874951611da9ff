-- The customer's checkout: the origins a cashier takes browser-created
-- orders from (comma-separated, empty: none), and the origin a
-- browser-created order came from (empty: created through the signed API).

ALTER TABLE cashiers ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '';
ALTER TABLE collection_orders ADD COLUMN origin TEXT NOT NULL DEFAULT '';
