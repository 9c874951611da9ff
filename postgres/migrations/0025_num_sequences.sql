-- Numeric ids from sequences. The trigger of 0001 numbered a row
-- max(num) + 1, which is exact only while one writer runs at a time:
-- creations on several instances now run in parallel, and two of them
-- would read the same maximum (the second failing on the unique index).
-- A sequence hands out each number once without waiting for anyone; a
-- rolled-back insert leaves a gap, which the numbers allow (they identify,
-- they do not count).
CREATE SEQUENCE cashiers_num_seq;
CREATE SEQUENCE contracts_num_seq;
CREATE SEQUENCE collection_orders_num_seq;
CREATE SEQUENCE payout_orders_num_seq;
SELECT setval('cashiers_num_seq', coalesce(max(num), 0) + 1, false) FROM cashiers;
SELECT setval('contracts_num_seq', coalesce(max(num), 0) + 1, false) FROM contracts;
SELECT setval('collection_orders_num_seq', coalesce(max(num), 0) + 1, false) FROM collection_orders;
SELECT setval('payout_orders_num_seq', coalesce(max(num), 0) + 1, false) FROM payout_orders;

CREATE OR REPLACE FUNCTION next_num() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.num IS NULL THEN
        NEW.num := nextval(format('%I', TG_TABLE_NAME || '_num_seq')::regclass);
    END IF;
    RETURN NEW;
END $$;
