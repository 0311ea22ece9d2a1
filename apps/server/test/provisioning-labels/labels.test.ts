/**
 * Device labels and packing slips over real HTTP (ledger API-54, API-64, STAFF-05, STAFF-09;
 * DESIGN.md section 5 'Device labels'), read back with poppler and jsQR: a label is one PDF page
 * or a PNG of the same drawing with the id, model, firmware, setup password and a QR code that
 * decodes to {origin}/add?device={id}; the batch call answers one page per device in the order
 * given; the packing slip lists the devices. Every download is in the provisioning log; unknown
 * ids are named in a 404 and nothing is made; non-staff get 403 and bad bodies 400.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { DEVICE_MESSAGES, PROV_LIMITS, PROV_LIST_MESSAGES, PROV_MESSAGES, unknownDevicesMessage } from '@portal/core';
import { labelDrawing } from '../../src/modules/provisioning/label-drawing';
import { labelSvg } from '../../src/modules/provisioning/label-render';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import {
  type RoleFixture,
  type SignedInUser,
  deviceWithRoles,
  expectError,
  provision,
  provisioningStaff,
  randomDeviceId,
  signedInUser,
} from '../device-helpers';
import { pdfInfo, pdfPagePng, pdfPageTexts, qrOfPng } from './pdf-reader';

const PUBLIC_URL = 'https://portal.example.com';
const addLink = (id: string) => `${PUBLIC_URL}/add?device=${id}`;

interface RawAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A call as the client, keeping the answer's bytes (the test client reads text). */
async function raw(client: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<RawAnswer> {
  const headers: Record<string, string> = { cookie: client.cookieHeader() };
  if (method === 'POST') {
    headers['x-requested-with'] = 'portal';
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(client.base + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function expectFile(res: RawAnswer, type: string, filename: string): void {
  expect(res.status, res.bytes.toString('utf8').slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toBe(type);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

function describeLabels(kind: DbKind): void {
  describe(`labels and packing slips (${kind})`, () => {
    let tp: TestPortal;
    let admin: SignedInUser;
    let fx: RoleFixture;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false, publicUrl: PUBLIC_URL });
      admin = await signedInUser(tp, ['senquip_admin']);
      fx = await deviceWithRoles(tp, { adminGroups: ['distributors'] });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      // No call of this suite may end in a server error.
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    const labelLog = async (id: string) =>
      (
        (await (await provisioningStaff(tp)).client.get(`/api/prov-portal-get-device-log/${id}`)).body as {
          entries: { message: string; author: string }[];
        }
      ).entries.filter((e) => e.message === PROV_MESSAGES.labelDownloaded);

    /** Everyone who is not provisioning staff: each role on a device (its ADMIN a distributor) and a stranger. */
    const nonStaff = (): [string, ApiClient][] =>
      (['ADMIN', 'USER', 'OPERATOR', 'VIEW', 'STRANGER'] as const).map((r) => [r, fx.users[r].client]);

    describe('GET /prov-portal-get-device-label/{id}', () => {
      it('answers a one-page PDF (the default) with the id, model, firmware, setup password and add link, its QR code decoding to the link', async () => {
        const device = await provision(tp, 'QUAD-X2');
        const staff = [await provisioningStaff(tp), admin];
        for (const member of staff) {
          for (const path of [`?format=pdf`, '']) {
            const res = await raw(member.client, 'GET', `/api/prov-portal-get-device-label/${device.deviceid}${path}`);
            expectFile(res, 'application/pdf', `${device.deviceid}.pdf`);
            expect(await pdfInfo(res.bytes)).toEqual({
              pages: 1,
              width: 288,
              height: 144,
              title: `Device ${device.deviceid}`,
            });
            const [text] = await pdfPageTexts(res.bytes);
            for (const part of [device.deviceid, device.setupPassword, 'QUAD-X2', device.fw, addLink(device.deviceid)])
              expect(text).toContain(part);
            expect(qrOfPng(await pdfPagePng(res.bytes, 1))).toBe(addLink(device.deviceid));
          }
        }
        expect((await labelLog(device.deviceid)).map((e) => e.author)).toEqual(
          staff.flatMap((s) => [s.email, s.email]),
        );
      });

      it('answers a 300 dpi PNG of the same drawing with ?format=png, its QR code decoding to the add link', async () => {
        const device = await provision(tp, 'ORB-C1');
        const { client, email } = await provisioningStaff(tp);
        const res = await raw(client, 'GET', `/api/prov-portal-get-device-label/${device.deviceid}?format=png`);
        expectFile(res, 'image/png', `${device.deviceid}.png`);
        const image = PNG.sync.read(res.bytes);
        expect([image.width, image.height]).toEqual([1200, 600]);
        expect(qrOfPng(res.bytes)).toBe(addLink(device.deviceid));
        expect((await labelLog(device.deviceid)).map((e) => e.author)).toEqual([email]);
      });

      it('refuses non-staff (403, as for an unknown id), the signed-out (401), bad ids and formats (400); unknown ids are 404', async () => {
        const ghost = randomDeviceId('G');
        for (const [who, client] of nonStaff()) {
          for (const format of ['pdf', 'png']) {
            const known = await client.get(`/api/prov-portal-get-device-label/${fx.device.deviceid}?format=${format}`);
            const unknown = await client.get(`/api/prov-portal-get-device-label/${ghost}?format=${format}`);
            expectError(known, 403, 'FORBIDDEN');
            expect(known.text, who).toBe(unknown.text);
          }
        }
        expectError(await tp.client().get(`/api/prov-portal-get-device-label/${ghost}`), 401, 'UNAUTHENTICATED');
        const { client } = await provisioningStaff(tp);
        expectError(
          await client.get(`/api/prov-portal-get-device-label/${ghost}`),
          404,
          'NOT_FOUND',
          DEVICE_MESSAGES.notFound,
        );
        expectError(
          await client.get('/api/prov-portal-get-device-label/abc%3Cx%3E'),
          400,
          'BAD_REQUEST',
          /9 uppercase/,
        );
        for (const query of ['format=svg', 'format=', 'size=2'])
          expectError(
            await client.get(`/api/prov-portal-get-device-label/${fx.device.deviceid}?${query}`),
            400,
            'BAD_REQUEST',
          );
        expect(await labelLog(fx.device.deviceid)).toEqual([]);
      });

      it('escapes every text it puts in the SVG the PNG is rendered from', () => {
        const svg = labelSvg(
          labelDrawing({
            deviceid: '<script>alert(1)</script>',
            model: 'A&B"\'',
            fw: ']]><x/>',
            setupPassword: 'P<W>\u0001',
            claimUrl: 'https://x.example/add?device=1&a="><svg onload=alert(1)>',
          }),
        );
        expect(svg).not.toMatch(/<script|<x\/>|<svg onload/);
        expect(svg).not.toContain('\u0001');
        expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
        expect(svg).toContain('A&amp;B&quot;&apos;');
        expect(svg).toContain('device=1&amp;a=&quot;&gt;&lt;svg onload=alert(1)&gt;');
        expect(svg.match(/<text/g)?.length).toBe(svg.match(/<\/text>/g)?.length);
      });
    });

    describe('POST /prov-portal-labels', () => {
      it('answers one PDF with a page per device in the order given, each page its device, each download logged', async () => {
        const devices = [await provision(tp, 'ORB-X1'), await provision(tp, 'QUAD-C2'), await provision(tp, 'ORB-C1')];
        const ids = [devices[2]!, devices[0]!, devices[1]!].map((d) => d.deviceid);
        const { client, email } = await provisioningStaff(tp);
        const res = await raw(client, 'POST', '/api/prov-portal-labels', { deviceList: ids });
        expectFile(res, 'application/pdf', `labels-3-${ids[0]}.pdf`);
        expect((await pdfInfo(res.bytes)).pages).toBe(3);
        const pages = await pdfPageTexts(res.bytes);
        expect(pages).toHaveLength(3);
        ids.forEach((id, i) => {
          const device = devices.find((d) => d.deviceid === id)!;
          expect(pages[i]).toContain(id);
          expect(pages[i]).toContain(device.setupPassword);
          expect(pages[i]).toContain(device.model);
        });
        expect(qrOfPng(await pdfPagePng(res.bytes, 2))).toBe(addLink(ids[1]!));
        for (const id of ids) expect((await labelLog(id)).map((e) => e.author)).toEqual([email]);
        // a senquip_admin too
        expectFile(
          await raw(admin.client, 'POST', '/api/prov-portal-labels', { deviceList: [ids[0]] }),
          'application/pdf',
          `labels-1-${ids[0]}.pdf`,
        );
      });

      it('names unknown ids in a 404 and makes and logs nothing', async () => {
        const device = await provision(tp);
        const ghosts = [randomDeviceId('G'), randomDeviceId('H')];
        const { client } = await provisioningStaff(tp);
        const res = await client.post('/api/prov-portal-labels', {
          deviceList: [ghosts[0], device.deviceid, ghosts[1]],
        });
        expectError(res, 404, 'NOT_FOUND', unknownDevicesMessage(ghosts));
        expect(await labelLog(device.deviceid)).toEqual([]);
      });

      it('refuses bad bodies (400), non-staff (403) and the signed-out (401)', async () => {
        const { client } = await provisioningStaff(tp);
        const id = fx.device.deviceid;
        const tooMany = Array.from({ length: PROV_LIMITS.batchMax + 1 }, () => randomDeviceId('M'));
        const bad: [unknown, string | RegExp][] = [
          [{}, /deviceList/],
          [{ deviceList: [] }, `deviceList: ${PROV_LIST_MESSAGES.listEmpty}`],
          [{ deviceList: tooMany }, `deviceList: ${PROV_LIST_MESSAGES.listTooLong}`],
          [{ deviceList: [id, id] }, `deviceList: ${PROV_LIST_MESSAGES.listRepeats}`],
          [{ deviceList: ['abc'] }, /9 uppercase/],
          [{ deviceList: id }, /deviceList/],
          [{ deviceList: [id], extra: 1 }, /extra/],
        ];
        for (const [body, message] of bad)
          expectError(await client.post('/api/prov-portal-labels', body), 400, 'BAD_REQUEST', message);
        for (const [, other] of nonStaff())
          expectError(await other.post('/api/prov-portal-labels', { deviceList: [id] }), 403, 'FORBIDDEN');
        expectError(await tp.client().post('/api/prov-portal-labels', { deviceList: [id] }), 401, 'UNAUTHENTICATED');
        expect(await labelLog(id)).toEqual([]);
      });
    });

    describe('POST /billing-packing-slip', () => {
      it('answers a PDF listing the devices (id, model, firmware), the date, reference, address and count', async () => {
        const devices = [await provision(tp, 'QUAD-X2'), await provision(tp, 'ORB-C1'), await provision(tp, 'ORB-X1')];
        const res = await raw(admin.client, 'POST', '/api/billing-packing-slip', {
          deviceList: devices.map((d) => d.deviceid),
          reference: '  PO-4471  ',
          address: 'Acme Mining\n12 Quarry Road\nPerth WA 6000',
        });
        const date = tp.clock.now().toISOString().slice(0, 10);
        expectFile(res, 'application/pdf', `packing-slip-${date}.pdf`);
        const info = await pdfInfo(res.bytes);
        expect(info.pages).toBe(1);
        expect(info.title).toBe('Packing slip PO-4471');
        const [text] = await pdfPageTexts(res.bytes);
        expect(text).toContain('Packing slip');
        expect(text).toContain(date);
        expect(text).toContain('PO-4471');
        for (const line of ['Acme Mining', '12 Quarry Road', 'Perth WA 6000']) expect(text).toContain(line);
        devices.forEach((d, i) =>
          expect(text).toMatch(new RegExp(`${i + 1}\\s+${d.deviceid}\\s+${d.model}\\s+${d.fw.replace(/\./g, '\\.')}`)),
        );
        expect(text).toContain('Total: 3 devices');
        // no label was downloaded
        for (const d of devices) expect(await labelLog(d.deviceid)).toEqual([]);
      });

      it('runs over pages for a long list, every device listed once', async () => {
        const devices = [];
        for (let i = 0; i < 40; i += 1) devices.push(await provision(tp, 'ORB-C1'));
        const res = await raw(admin.client, 'POST', '/api/billing-packing-slip', {
          deviceList: devices.map((d) => d.deviceid),
        });
        expectFile(res, 'application/pdf', `packing-slip-${tp.clock.now().toISOString().slice(0, 10)}.pdf`);
        const pages = await pdfPageTexts(res.bytes);
        expect(pages.length).toBe(2);
        expect(pages[0]).toContain('Page 1 of 2');
        const all = pages.join('\n');
        for (const d of devices) expect(all.split(d.deviceid).length - 1).toBe(1);
        expect(pages[1]).toContain('Total: 40 devices');
        expect(pages[1]).toContain('Device ID');
      });

      it('names unknown ids in a 404; refuses bad bodies (400), everyone but staff admins (403) and the signed-out (401)', async () => {
        const id = fx.device.deviceid;
        const ghost = randomDeviceId('G');
        expectError(
          await admin.client.post('/api/billing-packing-slip', { deviceList: [id, ghost] }),
          404,
          'NOT_FOUND',
          unknownDevicesMessage([ghost]),
        );
        const bad: [unknown, string | RegExp][] = [
          [{ deviceList: [] }, `deviceList: ${PROV_LIST_MESSAGES.listEmpty}`],
          [{ deviceList: [id, id] }, `deviceList: ${PROV_LIST_MESSAGES.listRepeats}`],
          [{ deviceList: [id], reference: 'x'.repeat(PROV_LIMITS.packingReferenceMax + 1) }, /reference/],
          [{ deviceList: [id], address: 'x'.repeat(PROV_LIMITS.packingAddressMax + 1) }, /address/],
          [{ deviceList: [id], reference: 7 }, /reference/],
          [{ deviceList: [id], note: 'x' }, /note/],
        ];
        for (const [body, message] of bad)
          expectError(await admin.client.post('/api/billing-packing-slip', body), 400, 'BAD_REQUEST', message);
        const refused = [
          ...nonStaff(),
          ['provisioning_account', (await provisioningStaff(tp)).client] as [string, ApiClient],
        ];
        for (const [, client] of refused)
          expectError(await client.post('/api/billing-packing-slip', { deviceList: [id] }), 403, 'FORBIDDEN');
        expectError(await tp.client().post('/api/billing-packing-slip', { deviceList: [id] }), 401, 'UNAUTHENTICATED');
      });
    });
  });
}

describeLabels('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeLabels('postgres');
