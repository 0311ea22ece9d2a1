-- Widget card images (spec 2 sections 2 and 3, WGT-13): the background image of a device's widget
-- card widget{n}, png or jpeg of at most 300 kB, kept here (the file storage, like device_images);
-- the card (devices.display_settings -> widget{n} -> image -> path) holds the address that serves
-- it, /api/device/{id}/widget-image/{widgetid}?v={updated_at as epoch ms}.

CREATE TABLE widget_images (
  device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  widget_id text NOT NULL CHECK (widget_id ~ '^widget[1-9][0-9]{0,2}$'),
  -- image/png or image/jpeg, checked against the first bytes on upload.
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  bytes bytea NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, widget_id)
);
