-- Compatibility with the provider's clients and receivers (issue 9).

-- Numeric identities beside the string ids: typed webhook bodies carry the
-- provider's documented number types (collection id Long, cashierId and
-- contractId Integer). One per table, 1, 2, 3, … in insertion order, never
-- changed; rows are never deleted, so MAX + 1 never reuses a number. The
-- string ids stay the identity of the API.

ALTER TABLE cashiers ADD COLUMN num INTEGER;
ALTER TABLE contracts ADD COLUMN num INTEGER;
ALTER TABLE collection_orders ADD COLUMN num INTEGER;
ALTER TABLE payout_orders ADD COLUMN num INTEGER;

UPDATE cashiers SET num = (SELECT COUNT(*) FROM cashiers c2 WHERE c2.rowid <= cashiers.rowid);
UPDATE contracts SET num = (SELECT COUNT(*) FROM contracts c2 WHERE c2.rowid <= contracts.rowid);
UPDATE collection_orders SET num = (SELECT COUNT(*) FROM collection_orders c2 WHERE c2.rowid <= collection_orders.rowid);
UPDATE payout_orders SET num = (SELECT COUNT(*) FROM payout_orders c2 WHERE c2.rowid <= payout_orders.rowid);

CREATE UNIQUE INDEX cashiers_num ON cashiers (num);
CREATE UNIQUE INDEX contracts_num ON contracts (num);
CREATE UNIQUE INDEX collection_orders_num ON collection_orders (num);
CREATE UNIQUE INDEX payout_orders_num ON payout_orders (num);

CREATE TRIGGER cashiers_num AFTER INSERT ON cashiers WHEN NEW.num IS NULL BEGIN
    UPDATE cashiers SET num = (SELECT IFNULL(MAX(num), 0) + 1 FROM cashiers) WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER contracts_num AFTER INSERT ON contracts WHEN NEW.num IS NULL BEGIN
    UPDATE contracts SET num = (SELECT IFNULL(MAX(num), 0) + 1 FROM contracts) WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER collection_orders_num AFTER INSERT ON collection_orders WHEN NEW.num IS NULL BEGIN
    UPDATE collection_orders SET num = (SELECT IFNULL(MAX(num), 0) + 1 FROM collection_orders) WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER payout_orders_num AFTER INSERT ON payout_orders WHEN NEW.num IS NULL BEGIN
    UPDATE payout_orders SET num = (SELECT IFNULL(MAX(num), 0) + 1 FROM payout_orders) WHERE rowid = NEW.rowid;
END;

-- Fair webhook claims: the host (and port) of an event's URL, so a claim
-- can take events round-robin across receiving hosts instead of oldest
-- first across all of them (one hanging host with thousands of events
-- would otherwise fill every claim).
ALTER TABLE events ADD COLUMN claim_host TEXT GENERATED ALWAYS AS (
    lower(substr(substr(url, instr(url, '://') + 3), 1,
                 instr(substr(url, instr(url, '://') + 3) || '/', '/') - 1))) VIRTUAL;
