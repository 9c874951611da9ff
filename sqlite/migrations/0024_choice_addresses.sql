-- Every deposit address an order with the customer's choice of network
-- has shown (migration 0013): a customer may have paid the address of a
-- network before switching to another, so the watcher still matches a
-- transfer to any of them with the order.

CREATE TABLE collection_addresses (
    chain    TEXT NOT NULL,
    address  TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES collection_orders (id),
    PRIMARY KEY (chain, address)
) STRICT;
