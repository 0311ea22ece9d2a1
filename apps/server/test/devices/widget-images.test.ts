/**
 * Widget card images over real HTTP (WGT-13; spec 2 sections 2 and 3): upload (PUT), fetch (GET)
 * and delete (DELETE) /api/device/{id}/widget-image/{widgetid} for each role and a stranger; the
 * checks of type, bytes and size; the card's image.path following the stored image; the plan
 * and the 99-widget limit; images of removed cards taken away. Runs on PGlite, and on PostgreSQL
 * when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_MESSAGES,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  WIDGET_IMAGE_MESSAGES,
  WIDGET_IMAGE_PATH_MESSAGE,
  type DeviceSettingsResponse,
  type WidgetImageResponse,
} from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type RoleFixture, del, deviceWithRoles, expectError, randomDeviceId } from '../device-helpers';

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

/** GET as the client, keeping the answer's bytes (the test client reads text). */
async function getImage(client: ApiClient, path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(client.base + path, { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const CARD = { name: 'Tank', elements: [], components: [] };

function describeWidgetImages(dbKind: DbKind): void {
  describe(`widget card images (${dbKind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
      fx = await deviceWithRoles(tp);
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      tp.clock.reset();
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    const id = () => fx.device.deviceid;
    const path = (widgetid: string, deviceid = id()) => `/api/device/${deviceid}/widget-image/${widgetid}`;
    const settingsPath = (deviceid = id()) => `/api/device/${deviceid}/settings`;
    const admin = () => fx.users.ADMIN.client;
    const display = async (client = admin(), deviceid = id()) =>
      ((await client.get(settingsPath(deviceid))).body as DeviceSettingsResponse).deviceSettings
        .PORTAL_displaySettings as Record<string, { image?: { path?: string | null; imageIsActive?: boolean } }>;
    const saveCards = async (cards: Record<string, unknown>, client = admin(), deviceid = id()) => {
      const res = await client.put(settingsPath(deviceid), { PORTAL_displaySettings: cards });
      expect(res.status, res.text).toBe(200);
    };

    it('an upload for a saved card becomes its image.path at once; GET answers the bytes, privately cacheable, not sniffed', async () => {
      await saveCards({ widget1: { ...CARD, image: { path: null, imageIsActive: true } } });
      const bytes = png(2000);
      const put = await admin().put(path('widget1'), upload('image/png', bytes));
      expect(put.status, put.text).toBe(200);
      const answer = put.body as WidgetImageResponse;
      expect(answer.widgetid).toBe('widget1');
      expect(answer.path).toMatch(new RegExp(`^/api/device/${id()}/widget-image/widget1\\?v=\\d+$`));
      expect((await display()).widget1?.image).toEqual({ path: answer.path, imageIsActive: true });

      const got = await getImage(admin(), answer.path!);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(got.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.bytes.equals(bytes)).toBe(true);

      // A new upload gets a new address (even within the same millisecond), so no cached copy is shown.
      const again = await admin().put(path('widget1'), upload('image/jpeg', jpeg(500)));
      expect(again.status).toBe(200);
      expect((again.body as WidgetImageResponse).path).not.toBe(answer.path);
      expect((await display()).widget1?.image?.path).toBe((again.body as WidgetImageResponse).path);
      expect((await getImage(admin(), path('widget1'))).headers.get('content-type')).toBe('image/jpeg');
    });

    it('a card not saved yet gets the address, and keeps it when it is first saved; another site is refused', async () => {
      const put = await admin().put(path('widget2'), upload('image/jpeg', jpeg(300)));
      expect(put.status, put.text).toBe(200);
      const imagePath = (put.body as WidgetImageResponse).path!;
      // Nothing saved for widget2 yet.
      expect(Object.keys(await display())).not.toContain('widget2');
      await saveCards({ widget2: { ...CARD, image: { path: imagePath, imageIsActive: true } } });
      expect((await display()).widget2?.image).toEqual({ path: imagePath, imageIsActive: true });
      expect((await getImage(fx.users.VIEW.client, imagePath)).status).toBe(200);

      const before = await display();
      for (const bad of ['https://example.com/a.png', `/api/device/${id()}/notes-image/asset_image?v=1`]) {
        expectError(
          await admin().put(settingsPath(), { PORTAL_displaySettings: { widget2: { ...CARD, image: { path: bad } } } }),
          400,
          'BAD_REQUEST',
          `PORTAL_displaySettings.widget2.image.path: ${WIDGET_IMAGE_PATH_MESSAGE}`,
        );
      }
      expect(await display()).toEqual(before);
    });

    it('accepts exactly 300 kB; refuses a gif, a fake png and 300 kB + 1 with 400, changing nothing', async () => {
      const exact = png(IMAGE_MAX_BYTES);
      expect((await admin().put(path('widget1'), upload('image/png', exact))).status).toBe(200);
      const before = await display();
      const refused: [unknown, string][] = [
        [upload('image/gif', gif(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', gif(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', jpeg(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/svg+xml', png(100)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', Buffer.alloc(0)), IMAGE_TYPE_MESSAGE],
        [upload('image/png', png(IMAGE_MAX_BYTES + 1)), IMAGE_TOO_LARGE_MESSAGE],
        [upload('image/jpeg', jpeg(IMAGE_MAX_BYTES + 1)), IMAGE_TOO_LARGE_MESSAGE],
      ];
      for (const [payload, message] of refused)
        expectError(await admin().put(path('widget1'), payload), 400, 'BAD_REQUEST', message);
      expectError(
        await admin().put(path('widget1'), { contentType: 'image/png' }),
        400,
        'BAD_REQUEST',
        /^dataBase64( must|: )/,
      );
      expectError(
        await admin().put(path('widget1'), upload('image/png', png(2 * IMAGE_MAX_BYTES))),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      expect(await display()).toEqual(before);
      expect((await getImage(admin(), path('widget1'))).bytes.equals(exact)).toBe(true);
    });

    it('ADMIN and USER write; OPERATOR and VIEW only read (403); a stranger gets 404 like an unknown device', async () => {
      await saveCards({ widget1: CARD });
      const bytes = png(300);
      const byUser = await fx.users.USER.client.put(path('widget1'), upload('image/png', bytes));
      expect(byUser.status, byUser.text).toBe(200);
      const before = await display();
      for (const role of ['ADMIN', 'USER', 'OPERATOR', 'VIEW'] as const) {
        const got = await getImage(fx.users[role].client, path('widget1'));
        expect(got.status, role).toBe(200);
        expect(got.bytes.equals(bytes)).toBe(true);
      }
      for (const role of ['OPERATOR', 'VIEW'] as const) {
        const client = fx.users[role].client;
        expectError(await client.put(path('widget1'), upload('image/png', png(10))), 403, 'FORBIDDEN');
        expectError(await del(client, path('widget1')), 403, 'FORBIDDEN');
      }
      const stranger = fx.users.STRANGER.client;
      const ghost = randomDeviceId('G');
      for (const call of [
        (d: string) => stranger.get(path('widget1', d)),
        (d: string) => stranger.put(path('widget1', d), upload('image/png', png(10))),
        (d: string) => del(stranger, path('widget1', d)),
      ]) {
        const mine = await call(id());
        expectError(mine, 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
        expect(mine.text).toBe((await call(ghost)).text);
      }
      expectError(await tp.client().get(path('widget1')), 401, 'UNAUTHENTICATED');
      expect(await display()).toEqual(before);
    });

    it('DELETE removes the image and sets image.path to null; GET then answers 404; DELETE again is fine', async () => {
      await saveCards({ widget1: { ...CARD, image: { path: null, imageIsActive: true } } });
      expect((await admin().put(path('widget1'), upload('image/png', png(64)))).status).toBe(200);
      const removed = await del(admin(), path('widget1'));
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body).toEqual({ widgetid: 'widget1', path: null });
      expect((await display()).widget1?.image).toEqual({ path: null, imageIsActive: true });
      expectError(await admin().get(path('widget1')), 404, 'NOT_FOUND', WIDGET_IMAGE_MESSAGES.notFound);
      expect((await del(admin(), path('widget1'))).status).toBe(200);
      // A card that does not exist is not made by a removal.
      expect((await del(admin(), path('widget77'))).status).toBe(200);
      expect(Object.keys(await display())).not.toContain('widget77');
    });

    it('a widget id other than widget1 to widget999 is a 400 naming it', async () => {
      for (const widgetid of ['chart1', 'widget0', 'widget1000', '__proto__', 'widget1.png']) {
        const message = `widgetid: ${WIDGET_IMAGE_MESSAGES.badWidgetId}`;
        expectError(await admin().get(path(widgetid)), 400, 'BAD_REQUEST', message);
        expectError(await admin().put(path(widgetid), upload('image/png', png(10))), 400, 'BAD_REQUEST', message);
        expectError(await del(admin(), path(widgetid)), 400, 'BAD_REQUEST', message);
      }
    });

    it('a removed card’s image goes with the next upload, so a device keeps at most one image per card', async () => {
      const own = await deviceWithRoles(tp);
      const c = own.users.ADMIN.client;
      const d = own.device.deviceid;
      await saveCards({ widget1: CARD, widget2: CARD }, c, d);
      for (const w of ['widget1', 'widget2', 'widget3'])
        expect((await c.put(path(w, d), upload('image/png', png(32)))).status).toBe(200);
      await saveCards({ widget1: null }, c, d);
      // Still there until the next upload ...
      expect((await getImage(c, path('widget1', d))).status).toBe(200);
      expect((await c.put(path('widget4', d), upload('image/png', png(32)))).status).toBe(200);
      // ... which keeps the saved card's, and its own, and takes the removed and unsaved ones.
      expect((await getImage(c, path('widget1', d))).status).toBe(404);
      expect((await getImage(c, path('widget3', d))).status).toBe(404);
      expect((await getImage(c, path('widget2', d))).status).toBe(200);
      expect((await getImage(c, path('widget4', d))).status).toBe(200);
    });

    it('at 99 cards a new card’s image is refused with the limit message; the 99 still take theirs', async () => {
      const own = await deviceWithRoles(tp);
      const c = own.users.ADMIN.client;
      const d = own.device.deviceid;
      const cards: Record<string, unknown> = {};
      for (let n = 1; n <= 99; n += 1) cards[`widget${n}`] = { name: `w${n}` };
      await saveCards(cards, c, d);
      expectError(
        await c.put(path('widget100', d), upload('image/png', png(32))),
        400,
        'BAD_REQUEST',
        'Maximum number of widgets reached [99]',
      );
      expect((await getImage(c, path('widget100', d))).status).toBe(404);
      expect((await c.put(path('widget99', d), upload('image/png', png(32)))).status).toBe(200);
    });

    it("on the Basic plan no image is written ('Widgets are unavailable on the Basic Plan'); reading and removing still work", async () => {
      const own = await deviceWithRoles(tp);
      const c = own.users.ADMIN.client;
      const d = own.device.deviceid;
      await saveCards({ widget1: CARD }, c, d);
      expect((await c.put(path('widget1', d), upload('image/png', png(32)))).status).toBe(200);
      // Added 91 days ago: the trial is over.
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [d, 91 * 86_400]);
      const before = await display(c, d);
      expectError(
        await c.put(path('widget1', d), upload('image/png', png(64))),
        400,
        'BAD_REQUEST',
        'Widgets are unavailable on the Basic Plan',
      );
      expect(await display(c, d)).toEqual(before);
      expect((await getImage(c, path('widget1', d))).bytes.equals(png(32))).toBe(true);
      expect((await del(c, path('widget1', d))).status).toBe(200);
      expect((await getImage(c, path('widget1', d))).status).toBe(404);
    });
  });
}

describeWidgetImages('pglite');
const pgUrl = await findPostgres();
if (pgUrl) describeWidgetImages('postgres');
