-- PostgreSQL twin of sqlite/migrations/0012_totp_step.sql.

-- The last TOTP time step (Unix seconds / 30) a user's sign-in or second-
-- factor change accepted; 0: none. A code of this step or an earlier one
-- is refused, so a code seen once cannot be used again (RFC 6238 §5.2).
-- Kept in the store so it holds across instances and restarts.

ALTER TABLE users ADD COLUMN totp_step BIGINT NOT NULL DEFAULT 0;
