-- Customer sub-brand logos (BRD-13): a user's brand image, set and removed by staff on the staff
-- user page, kept here (the file storage, like device_images): png, jpeg or webp of at most 300 kB,
-- its type read from its first bytes. users.brand_image_url holds the address that serves it,
-- /api/user/{userid}/brand-image?v={updated_at as epoch ms}, which the session carries.

CREATE TABLE user_brand_images (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  bytes bytea NOT NULL,
  updated_at timestamptz NOT NULL
);
