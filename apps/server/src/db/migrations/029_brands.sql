-- The brand a user signed up under and the brand a device was provisioned for (issue 30): links
-- that leave the portal (mails, label QR codes) use that brand's configured host, whenever they
-- are sent. Existing rows belong to the default brand. Brand ids are core's (BRAND_IDS); a value
-- the server does not know reads as the default brand.
ALTER TABLE users ADD COLUMN brand text NOT NULL DEFAULT 'default';
ALTER TABLE devices ADD COLUMN brand text NOT NULL DEFAULT 'default';
