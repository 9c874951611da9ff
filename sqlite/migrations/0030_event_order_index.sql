-- A claim's check "is an earlier event of this order still pending?"
-- reads events_order (an order has a handful of events) instead of an
-- index of its own: every event's insert and delivery wrote that index
-- too, one b-tree more per order created and per webhook delivered.
DROP INDEX events_pending_order;
