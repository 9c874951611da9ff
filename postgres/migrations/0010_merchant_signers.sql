-- PostgreSQL twin of sqlite/migrations/0010_merchant_signers.sql.

-- Each merchant's own payout signer per network, sealed under the master
-- key like the service keys. A contract is registered to a merchant only
-- when its on-chain signer() is that merchant's signer, so the signer a
-- contract names proves whose it is; a merchant's signer is never
-- replaced (contracts name it).
CREATE TABLE merchant_signers (
    merchant_id TEXT    NOT NULL REFERENCES merchants (id),
    chain       TEXT    NOT NULL,
    address     TEXT    NOT NULL,
    key_sealed  BYTEA   NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (merchant_id, chain)
);

CREATE UNIQUE INDEX merchant_signers_address ON merchant_signers (chain, address);

-- The signer address the contract was proven to name at registration (a
-- merchant signer); '' for contracts registered before: the network's
-- service signer signs their batches until they are checked again.
ALTER TABLE contracts ADD COLUMN signer TEXT NOT NULL DEFAULT '';
