/**
 * Customer sub-brand logos over real HTTP (BRD-13): staff admins set (PUT) and remove (DELETE) a
 * user's brand image at /api/staff/user/{userid}/brand-image; anyone else gets 403 (401 signed
 * out) and nothing changes. A png, jpeg or webp of at most 300 kB is taken, its type read from its
 * bytes (an SVG, a gif or a png's name on other bytes is refused with 400); 300 kB + 1 byte is a 400
 * and a far larger body a 413, both saying the limit. The user's session then carries the image's
 * address, which serves it (its type, nosniff) to the user themself and to staff, and 404 to
 * anyone else. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRAND_IMAGE_MESSAGES,
  IMAGE_MAX_BYTES,
  STAFF_ADMIN_GROUP,
  brandImageTypeOf,
  userBrandImagePath,
  type StaffUserResponse,
  type UserBrandImageResponse,
} from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type SignedInUser, del, expectError, signedInUser } from '../device-helpers';

/** `size` bytes starting with the given ones (the rest zero). */
function bytesOf(size: number, head: readonly number[]): Buffer {
  const buffer = Buffer.alloc(size);
  Buffer.from(head.slice(0, size)).copy(buffer);
  return buffer;
}
const ascii = (text: string) => [...Buffer.from(text, 'latin1')];
const png = (size: number) => bytesOf(size, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = (size: number) => bytesOf(size, [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const webp = (size: number) => bytesOf(size, [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8 ')]);
const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
);
const gif = (size: number) => bytesOf(size, ascii('GIF89a'));

const upload = (bytes: Buffer) => ({ dataBase64: bytes.toString('base64') });

/** GET as the client, keeping the answer's bytes (the test client reads text). */
async function getImage(client: ApiClient, path: string) {
  const res = await fetch(client.base + path, { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const sessionImage = async (client: ApiClient) =>
  ((await client.get('/api/auth/session')).body as { user: { brandImageUrl: string | null } | null }).user
    ?.brandImageUrl;

function describeBrandImages(dbKind: DbKind): void {
  describe(`customer brand images (${dbKind})`, () => {
    let tp: TestPortal;
    let staff: SignedInUser;
    let customer: SignedInUser;
    let other: SignedInUser;
    let distributor: SignedInUser;
    const path = (userId: string) => `/api/staff/user/${encodeURIComponent(userId)}/brand-image`;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
      [staff, customer, other, distributor] = await Promise.all([
        signedInUser(tp, [STAFF_ADMIN_GROUP]),
        signedInUser(tp),
        signedInUser(tp),
        signedInUser(tp, ['distributors']),
      ]);
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('staff set a png: the session carries its address, which serves it to the user and staff only', async () => {
      const bytes = png(2048);
      const res = await staff.client.put(path(customer.id), upload(bytes));
      expect(res.status, res.text).toBe(200);
      const answer = res.body as UserBrandImageResponse;
      expect(answer.message).toBe(BRAND_IMAGE_MESSAGES.saved);
      expect(answer.userId).toBe(customer.id);
      expect(answer.brandImageUrl).toMatch(/^\/api\/user\/[^/]+\/brand-image\?v=\d+$/);
      const address = answer.brandImageUrl!;

      expect(await sessionImage(customer.client)).toBe(address);
      const dossier = (await staff.client.get(`/api/staff/user/${customer.id}`)).body as StaffUserResponse;
      expect(dossier.user.brandImageUrl).toBe(address);

      for (const viewer of [customer, staff]) {
        const got = await getImage(viewer.client, address);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe('image/png');
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.headers.get('cache-control')).toBe('private, max-age=86400');
        expect(got.bytes.equals(bytes)).toBe(true);
      }
      // Anyone else: the same 404 as a user without an image; signed out: 401.
      expectError(await other.client.get(address), 404, 'NOT_FOUND', BRAND_IMAGE_MESSAGES.notFound);
      expectError(await other.client.get(`/api/user/${other.id}/brand-image`), 404, 'NOT_FOUND');
      expectError(await tp.client().get(address), 401, 'UNAUTHENTICATED');
      expect(await sessionImage(other.client)).toBeNull();
    });

    it('jpeg and webp are taken with the type their bytes say; each upload gets a new address', async () => {
      const first = (await staff.client.put(path(customer.id), upload(jpeg(900)))).body as UserBrandImageResponse;
      const jpegGot = await getImage(customer.client, first.brandImageUrl!);
      expect(jpegGot.headers.get('content-type')).toBe('image/jpeg');
      const second = (await staff.client.put(path(customer.id), upload(webp(900)))).body as UserBrandImageResponse;
      expect(second.brandImageUrl).not.toBe(first.brandImageUrl);
      expect(second.brandImageUrl).toBe(
        userBrandImagePath(customer.id, Number(new URL(second.brandImageUrl!, 'http://x').searchParams.get('v'))),
      );
      const webpGot = await getImage(customer.client, second.brandImageUrl!);
      expect(webpGot.headers.get('content-type')).toBe('image/webp');
      expect(await sessionImage(customer.client)).toBe(second.brandImageUrl);
    });

    it('refuses other types by their bytes, and says the 300 kB limit as a 400 and a 413', async () => {
      const before = await sessionImage(customer.client);
      expect(brandImageTypeOf(svg)).toBeNull();
      for (const bytes of [svg, gif(100), Buffer.from('just text, named logo.png')]) {
        expectError(
          await staff.client.put(path(customer.id), upload(bytes)),
          400,
          'BAD_REQUEST',
          BRAND_IMAGE_MESSAGES.type,
        );
      }
      expectError(await staff.client.put(path(customer.id), { dataBase64: '' }), 400, 'BAD_REQUEST');
      expectError(await staff.client.put(path(customer.id), { dataBase64: 'not base64!' }), 400, 'BAD_REQUEST');
      expectError(
        await staff.client.put(path(customer.id), upload(png(IMAGE_MAX_BYTES + 1))),
        400,
        'BAD_REQUEST',
        BRAND_IMAGE_MESSAGES.tooLarge,
      );
      expectError(
        await staff.client.put(path(customer.id), upload(png(1024 * 1024))),
        413,
        'PAYLOAD_TOO_LARGE',
        BRAND_IMAGE_MESSAGES.tooLarge,
      );
      expect(await sessionImage(customer.client)).toBe(before);
      // Exactly 300 kB is taken.
      expect((await staff.client.put(path(customer.id), upload(png(IMAGE_MAX_BYTES)))).status).toBe(200);
    });

    it('only staff admins set or remove it: 403 for a customer, the user themself and a distributor, 401 signed out', async () => {
      const before = await sessionImage(customer.client);
      for (const caller of [customer, other, distributor]) {
        expectError(await caller.client.put(path(customer.id), upload(png(100))), 403, 'FORBIDDEN');
        expectError(await del(caller.client, path(customer.id)), 403, 'FORBIDDEN');
      }
      expectError(await tp.client().put(path(customer.id), upload(png(100))), 401, 'UNAUTHENTICATED');
      expect(await sessionImage(customer.client)).toBe(before);
      expectError(await staff.client.put(path('no-such-user'), upload(png(100))), 404, 'NOT_FOUND');
    });

    it('staff remove it: the session carries none and the address answers 404', async () => {
      const address = (await sessionImage(customer.client))!;
      const res = await del(staff.client, path(customer.id));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ userId: customer.id, brandImageUrl: null, message: BRAND_IMAGE_MESSAGES.removed });
      expect(await sessionImage(customer.client)).toBeNull();
      expectError(await customer.client.get(address), 404, 'NOT_FOUND', BRAND_IMAGE_MESSAGES.notFound);
      // None there is fine.
      expect((await del(staff.client, path(customer.id))).status).toBe(200);
    });
  });
}

describeBrandImages('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeBrandImages('postgres');
