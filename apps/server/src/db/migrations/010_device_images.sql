-- Device notes images (DLG-21): the asset and brand images of a device are kept here, and its
-- notes (devices.notes -> images -> {slot}) hold the address that serves each one,
-- /api/device/{id}/notes-image/{slot}?v={updated_at as epoch ms}.

CREATE TABLE device_images (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  slot text NOT NULL CHECK (slot IN ('asset_image', 'brand_image')),
  -- image/png or image/jpeg, checked against the first bytes on upload.
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, slot)
);

-- Images saved before as data: URLs in the notes move here (anything else in their place is dropped).
INSERT INTO device_images (device_id, slot, content_type, bytes, updated_at)
SELECT d.id,
       s.slot,
       substring(d.notes #>> ARRAY['images', s.slot] FROM '^data:(image/(?:png|jpeg));base64,'),
       decode(substring(d.notes #>> ARRAY['images', s.slot] FROM ',(.*)$'), 'base64'),
       now()
  FROM devices d
 CROSS JOIN (VALUES ('asset_image'), ('brand_image')) AS s (slot)
 WHERE d.notes #>> ARRAY['images', s.slot] ~ '^data:image/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$'
   AND length(substring(d.notes #>> ARRAY['images', s.slot] FROM ',(.*)$')) % 4 = 0;

UPDATE devices d
   SET notes = jsonb_set(
         d.notes,
         '{images}',
         (SELECT jsonb_object_agg(
                   s.slot,
                   CASE WHEN i.device_id IS NULL THEN NULL
                        ELSE to_jsonb('/api/device/' || d.id || '/notes-image/' || s.slot || '?v='
                                      || floor(extract(epoch FROM i.updated_at) * 1000)::bigint) END)
            FROM (VALUES ('asset_image'), ('brand_image')) AS s (slot)
            LEFT JOIN device_images i ON i.device_id = d.id AND i.slot = s.slot))
 WHERE d.notes ? 'images';
