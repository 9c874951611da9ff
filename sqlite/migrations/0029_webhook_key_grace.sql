-- A rotation's grace covers the webhook key too: while it lasts, webhooks
-- are still signed in the headers receivers read with the previous key
-- (sealed here as it was), and with the new key in the -Next headers.
-- Cleared with the previous API key (prev_key_until ends both).

ALTER TABLE merchants ADD COLUMN prev_webhook_key_sealed BLOB;
