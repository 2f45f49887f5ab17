-- The signature key mode of a webhook (docs/webhooks.md, "Signature key mode"):
--   standard     the HMAC key is the secret's key bytes: the base64 part after "whsec_", decoded
--                (Standard Webhooks; every Standard Webhooks library verifies it);
--   secret-text  the HMAC key is the whole secret text, "whsec_…" included, as bytes — for
--                receivers that implement "HMAC-SHA256 with the secret as key" literally.
-- Everything else (headers, signed content, encoding, rotation) is the same in both modes.

-- +goose Up
ALTER TABLE webhooks ADD COLUMN key_mode TEXT NOT NULL DEFAULT 'standard'
    CHECK (key_mode IN ('standard', 'secret-text'));
