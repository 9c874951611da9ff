-- The order inserts number their rows themselves (sqlstore's NextNum), so
-- the insert triggers of migration 0004 never fire for them. A trigger on
-- a table still makes SQLite copy every page an insert changes to a
-- statement journal first, in case the trigger fails halfway: about a
-- quarter of an order insert's CPU. Cashiers and contracts, written rarely
-- and by statements that leave the number to the trigger, keep theirs.
DROP TRIGGER collection_orders_num;
DROP TRIGGER payout_orders_num;
