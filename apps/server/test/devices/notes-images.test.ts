/**
 * Device notes images over real HTTP (DLG-18, DLG-19, DLG-21): upload (PUT), fetch (GET) and
 * delete (DELETE) /api/device/{id}/notes-image/{slot} for each role and a stranger, the checks of
 * type, bytes and size, and the notes pointing at the stored image. Runs on PGlite, and on
 * PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_MESSAGES,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  NOTES_IMAGES_READ_ONLY_MESSAGE,
  notesImagePath,
  type DeviceRole,
  type DeviceSettingsResponse,
} from '@portal/core';
import { openDatabase } from '../../src/db/db';
import { loadMigrations, migrate } from '../../src/db/migrate';
import {
  type ApiClient,
  type DbKind,
  type TestPortal,
  dropSchema,
  findPostgres,
  newSchemaName,
  startTestPortal,
} from '../helpers';
import { type RoleFixture, del, deviceWithRoles, expectError, randomDeviceId } from '../device-helpers';

const ROLES: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

/** A real 1 x 1 png. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** `size` bytes starting with the given ones (the rest zero). */
function bytesOf(size: number, head: readonly number[]): Buffer {
  const buffer = Buffer.alloc(size);
  Buffer.from(head.slice(0, size)).copy(buffer);
  return buffer;
}
const png = (size: number) => bytesOf(size, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = (size: number) => bytesOf(size, [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const gif = (size: number) => bytesOf(size, [...Buffer.from('GIF89a')]);

const upload = (contentType: string, bytes: Buffer) => ({ contentType, dataBase64: bytes.toString('base64') });

interface RawImage {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GET as the client, keeping the answer's bytes (the test client reads text). */
async function getImage(client: ApiClient, path: string): Promise<RawImage> {
  const res = await fetch(client.base + path, { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const notesOf = (res: { body: unknown }) =>
  (res.body as DeviceSettingsResponse).deviceSettings.PORTAL_deviceNotes as { images?: Record<string, unknown> };

function describeNotesImages(dbKind: DbKind): void {
  describe(`device notes images (${dbKind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;
    let ghost: string;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
      fx = await deviceWithRoles(tp);
      ghost = randomDeviceId('G');
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      tp.clock.reset();
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    const path = (slot: string, id = fx.device.deviceid) => `/api/device/${id}/notes-image/${slot}`;
    const admin = () => fx.users.ADMIN.client;
    const settingsText = async () => (await admin().get(`/api/device/${fx.device.deviceid}/settings`)).text;

    it('ADMIN uploads a png and a jpeg; GET answers the same bytes and type, privately cacheable, not sniffed', async () => {
      const pngBytes = Buffer.concat([TINY_PNG, png(1000)]);
      const put = await admin().put(path('asset_image'), upload('image/png', pngBytes));
      expect(put.status, put.text).toBe(200);
      const assetPath = notesOf(put).images?.asset_image as string;
      expect(assetPath).toMatch(new RegExp(`^/api/device/${fx.device.deviceid}/notes-image/asset_image\\?v=\\d+$`));
      // The settings record (GET) says the same.
      const settings = await admin().get(`/api/device/${fx.device.deviceid}/settings`);
      expect(notesOf(settings).images).toEqual({ asset_image: assetPath });

      const got = await getImage(admin(), assetPath);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(got.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.bytes.equals(pngBytes)).toBe(true);

      const jpegBytes = jpeg(5000);
      const putJpeg = await admin().put(path('brand_image'), upload('image/jpeg', jpegBytes));
      expect(putJpeg.status, putJpeg.text).toBe(200);
      const images = notesOf(putJpeg).images!;
      expect(images.asset_image).toBe(assetPath);
      expect(images.brand_image).toMatch(/\/notes-image\/brand_image\?v=\d+$/);
      const gotJpeg = await getImage(admin(), path('brand_image'));
      expect(gotJpeg.headers.get('content-type')).toBe('image/jpeg');
      expect(gotJpeg.bytes.equals(jpegBytes)).toBe(true);

      // A new upload gets a new address (even within the same millisecond), so no cached copy is shown.
      const again = await admin().put(path('asset_image'), upload('image/jpeg', jpegBytes));
      expect(again.status).toBe(200);
      expect(notesOf(again).images?.asset_image).not.toBe(assetPath);
      expect((await getImage(admin(), assetPath)).headers.get('content-type')).toBe('image/jpeg');
    });

    it('accepts exactly 300 kB; refuses a gif, a fake png and 300 kB + 1 with 400, changing nothing', async () => {
      const exact = png(IMAGE_MAX_BYTES);
      const ok = await admin().put(path('asset_image'), upload('image/png', exact));
      expect(ok.status, ok.text).toBe(200);
      const before = await settingsText();

      const refused: [unknown, string][] = [
        [upload('image/gif', gif(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', gif(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', jpeg(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), IMAGE_TYPE_MESSAGE],
        [upload('image/svg+xml', png(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', Buffer.alloc(0)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', png(IMAGE_MAX_BYTES + 1)), IMAGE_TOO_LARGE_MESSAGE],
        [upload('image/jpeg', jpeg(IMAGE_MAX_BYTES + 1)), IMAGE_TOO_LARGE_MESSAGE],
      ];
      for (const [payload, message] of refused)
        expectError(await admin().put(path('asset_image'), payload), 400, 'BAD_REQUEST', message);
      expectError(
        await admin().put(path('asset_image'), { contentType: 'image/png', dataBase64: 'iVBORw0KGgo*' }),
        400,
        'BAD_REQUEST',
        'The image data is not valid base64.',
      );
      expectError(
        await admin().put(path('asset_image'), { contentType: 'image/png' }),
        400,
        'BAD_REQUEST',
        /^dataBase64( must|: )/,
      );
      expectError(
        await admin().put(path('asset_image'), { ...upload('image/png', png(10)), name: 'x.png' }),
        400,
        'BAD_REQUEST',
        /Unrecognized key.*name/,
      );
      // Far over the limit: the body itself is refused.
      expectError(
        await admin().put(path('asset_image'), upload('image/png', png(2 * IMAGE_MAX_BYTES))),
        413,
        'PAYLOAD_TOO_LARGE',
      );

      expect(await settingsText()).toBe(before);
      const stored = await getImage(admin(), path('asset_image'));
      expect(stored.bytes.equals(exact)).toBe(true);
    });

    it('USER, OPERATOR and VIEW may GET but not PUT or DELETE (403); a stranger gets 404 like an unknown device', async () => {
      const bytes = png(300);
      expect((await admin().put(path('brand_image'), upload('image/png', bytes))).status).toBe(200);
      const before = await settingsText();
      for (const role of ROLES) {
        const got = await getImage(fx.users[role].client, path('brand_image'));
        expect(got.status, role).toBe(200);
        expect(got.bytes.equals(bytes)).toBe(true);
      }
      for (const role of ['USER', 'OPERATOR', 'VIEW'] as const) {
        const client = fx.users[role].client;
        expectError(await client.put(path('brand_image'), upload('image/png', png(10))), 403, 'FORBIDDEN');
        expectError(await del(client, path('brand_image')), 403, 'FORBIDDEN');
      }

      const stranger = fx.users.STRANGER.client;
      const calls = [
        (id: string) => stranger.get(path('brand_image', id)),
        (id: string) => stranger.put(path('brand_image', id), upload('image/png', png(10))),
        (id: string) => del(stranger, path('brand_image', id)),
      ];
      for (const call of calls) {
        const mine = await call(fx.device.deviceid);
        const none = await call(ghost);
        expectError(mine, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(mine.text).toBe(none.text);
      }
      expectError(await tp.client().get(path('brand_image')), 401, 'UNAUTHENTICATED');
      expect(await settingsText()).toBe(before);
      expect((await getImage(admin(), path('brand_image'))).bytes.equals(bytes)).toBe(true);
    });

    it('DELETE removes the image and sets its notes entry to null; GET then answers 404; DELETE again is fine', async () => {
      expect((await admin().put(path('asset_image'), upload('image/png', png(64)))).status).toBe(200);
      expect((await admin().put(path('brand_image'), upload('image/jpeg', jpeg(64)))).status).toBe(200);
      const removed = await del(admin(), path('asset_image'));
      expect(removed.status, removed.text).toBe(200);
      const images = notesOf(removed).images!;
      expect(images.asset_image).toBeNull();
      expect(images.brand_image).toMatch(/brand_image\?v=\d+$/);
      expectError(await admin().get(path('asset_image')), 404, 'NOT_FOUND', DEVICE_MESSAGES.notesImageNotFound);
      expect((await getImage(admin(), path('brand_image'))).status).toBe(200);
      const again = await del(admin(), path('asset_image'));
      expect(again.status).toBe(200);
      expect(notesOf(again).images?.asset_image).toBeNull();
    });

    it('an unknown slot is a 400 naming the slot', async () => {
      for (const slot of ['logo', '__proto__', 'ASSET_IMAGE', 'asset_image.png']) {
        const message = /^slot: must be asset_image or brand_image$/;
        expectError(await admin().get(path(slot)), 400, 'BAD_REQUEST', message);
        expectError(await admin().put(path(slot), upload('image/png', png(10))), 400, 'BAD_REQUEST', message);
        expectError(await del(admin(), path(slot)), 400, 'BAD_REQUEST', message);
      }
    });

    it('PUT settings no longer takes images, and keeps the stored ones when other notes change', async () => {
      const put = await admin().put(path('asset_image'), upload('image/png', png(32)));
      const assetPath = notesOf(put).images?.asset_image;
      const settings = `/api/device/${fx.device.deviceid}/settings`;
      const before = await settingsText();
      for (const images of [
        { asset_image: `data:image/png;base64,${png(32).toString('base64')}` },
        { asset_image: assetPath },
        { asset_image: null },
        null,
      ]) {
        expectError(
          await admin().put(settings, { PORTAL_deviceNotes: { images } }),
          400,
          'BAD_REQUEST',
          `PORTAL_deviceNotes.images: ${NOTES_IMAGES_READ_ONLY_MESSAGE}`,
        );
      }
      expect(await settingsText()).toBe(before);
      const saved = await admin().put(settings, { PORTAL_deviceNotes: { make: 'Acme' } });
      expect(saved.status, saved.text).toBe(200);
      expect(notesOf(saved)).toMatchObject({ make: 'Acme', images: { asset_image: assetPath } });
      // PUT settings is back to the default body limit (64 kB): the images go through notes-image.
      expectError(
        await admin().put(settings, { PORTAL_deviceNotes: { description: 'x'.repeat(70 * 1024) } }),
        413,
        'PAYLOAD_TOO_LARGE',
      );
    });

    it('migration 010 moves images kept as data: URLs in the notes into storage', async () => {
      const pgUrl = dbKind === 'postgres' ? await findPostgres() : undefined;
      const schema = pgUrl ? newSchemaName() : undefined;
      const db = await openDatabase({ dataDir: 'memory://', databaseUrl: pgUrl ?? undefined, schema });
      try {
        const all = await loadMigrations();
        await migrate(
          db,
          all.filter((m) => m.version < '010'),
        );
        const legacy = Buffer.concat([TINY_PNG, png(40)]);
        const notes = {
          make: 'Acme',
          images: {
            asset_image: `data:image/png;base64,${legacy.toString('base64')}`,
            brand_image: 'javascript:alert(1)',
          },
        };
        for (const [id, value] of [
          ['MIG000001', notes],
          ['MIG000002', { make: 'No images' }],
        ] as const) {
          await db.query(
            `INSERT INTO devices (id, model, family, fw, key_hash, setup_password, notes, created_at)
             VALUES ($1, 'ORB-C1', 'ORB', 'SFW003-1.0.0', 'h', 'p', $2, now())`,
            [id, JSON.stringify(value)],
          );
        }
        expect(await migrate(db, all)).toEqual(all.filter((m) => m.version >= '010').map((m) => m.name));

        const [image] = await db.query<{ slot: string; content_type: string; bytes: Uint8Array; updated_at: Date }>(
          'SELECT slot, content_type, bytes, updated_at FROM device_images WHERE device_id = $1',
          ['MIG000001'],
        );
        expect(image).toMatchObject({ slot: 'asset_image', content_type: 'image/png' });
        expect(Buffer.from(image!.bytes).equals(legacy)).toBe(true);
        const rows = await db.query<{ id: string; notes: Record<string, unknown> }>(
          "SELECT id, notes FROM devices WHERE id LIKE 'MIG%' ORDER BY id",
        );
        expect(rows.map((r) => r.notes)).toEqual([
          {
            make: 'Acme',
            images: {
              asset_image: notesImagePath('MIG000001', 'asset_image', Math.floor(image!.updated_at.getTime())),
              brand_image: null,
            },
          },
          { make: 'No images' },
        ]);
      } finally {
        await db.close();
        if (pgUrl && schema) await dropSchema(pgUrl, schema);
      }
    });
  });
}

describeNotesImages('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeNotesImages('postgres');
