/**
 * Links under the user's and the device's brand (issue 30; DESIGN.md section 5, 'Links that leave
 * the portal'), over real HTTP with a real SMTP server: a user keeps the brand of the host they
 * signed up on and a device the brand it was provisioned for; every mail to a user (verification,
 * reset, the sign-up warning, group shares, alerts sent at once during ingest and digests sent
 * later by the timer's work) links to the configured host of the recipient's brand, and a label's
 * QR code (decoded with jsQR) to the host of its device's brand, whoever prints it from wherever.
 * BRAND_HOSTS gives a brand a host that is not a prefix of PUBLIC_URL; a forged Host header changes
 * no link; without PUBLIC_URL the label answers and the provisioning record warn.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_WARNING_HEADER, PUBLIC_ADDRESS_MESSAGES, type BrandId, type ProvDevice } from '@portal/core';
import {
  type ApiClient,
  type MailCatcher,
  type TestPortal,
  linkIn,
  makeUser,
  quietTestConfig,
  signedIn,
  startMailCatcher,
  startPortalForTest,
  uniqueEmail,
} from '../helpers';
import { type SignedInUser, claim, provisioningStaff, randomDeviceId, signedInUser } from '../device-helpers';
import { postRecords } from '../ingest-helpers';
import { pdfPagePng, qrOfPng } from '../provisioning-labels/pdf-reader';

const PUBLIC_URL = 'https://portal.example.com';
const TANK = 'https://tank.portal.example.com';
const TANK_OWN_HOST = 'https://portal.tankco.example';
const HOUR = 3_600_000;
const SUBSCRIBE = { email: true, sms: false, events: true, limits: false, offline: false, schedule: 3600 };

/** A portal on PGlite in memory that mails through `mail`, with the alert timer left to the test. */
async function startPortal(mail: MailCatcher, env: NodeJS.ProcessEnv): Promise<TestPortal> {
  return startPortalForTest(quietTestConfig({ SMTP_URL: mail.url, ...env }), { alerts: { tickMs: 0 } });
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

/** A call keeping the answer's bytes (labels), optionally with a Host header of the test's choice. */
function raw(
  client: ApiClient,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  host?: string,
): Promise<RawAnswer> {
  const url = new URL(client.base + path);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { cookie: client.cookieHeader(), ...(host ? { host } : {}) };
  if (method === 'POST') Object.assign(headers, { 'x-requested-with': 'portal', 'content-type': 'application/json' });
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Provisions a device for `brand` (or with no brand named) as provisioning staff. */
async function provisionFor(
  tp: TestPortal,
  brand?: BrandId,
): Promise<ProvDevice & { setupPassword: string; deviceKey: string }> {
  const { client } = await provisioningStaff(tp);
  const res = await client.post(`/api/prov-portal-edit-device/${randomDeviceId('B')}`, {
    model: 'ORB-C1',
    ...(brand ? { brand } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body as ProvDevice & { setupPassword: string; deviceKey: string };
}

/** Signs up on `host`, verifies with the mailed link, signs in (on the default host): the user and the link's origin. */
async function signUpOn(
  tp: TestPortal,
  mail: MailCatcher,
  host: string,
): Promise<{ user: SignedInUser; verifyOrigin: string }> {
  const email = uniqueEmail('brand');
  const password = 'password-1';
  const res = await tp.client().post('/api/auth/signup', { email, password }, { host });
  expect(res.status, res.text).toBe(201);
  const link = linkIn(await mail.waitFor((m) => m.to.includes(email)), 'verify');
  expect((await tp.client().post(`/api/auth/verify/${link.code}`)).status).toBe(200);
  const made = { id: '', email, password };
  const client = await signedIn(tp, made);
  return { user: { ...made, client }, verifyOrigin: new URL(link.url).origin };
}

/** The brand stored for a user. */
async function brandOfUser(tp: TestPortal, email: string): Promise<string> {
  const [row] = await tp.portal.db.query<{ brand: string }>('SELECT brand FROM users WHERE email = $1', [email]);
  return row!.brand;
}

/** The QR code of a device's label, as a PNG and as a one-page PDF. */
async function labelQr(client: ApiClient, deviceid: string, host?: string): Promise<{ png: string; pdf: string }> {
  const png = await raw(client, 'GET', `/api/prov-portal-get-device-label/${deviceid}?format=png`, undefined, host);
  expect(png.status, png.bytes.toString('utf8').slice(0, 200)).toBe(200);
  const pdf = await raw(client, 'GET', `/api/prov-portal-get-device-label/${deviceid}`, undefined, host);
  expect(pdf.status).toBe(200);
  return { png: qrOfPng(png.bytes) ?? '', pdf: qrOfPng(await pdfPagePng(pdf.bytes, 1)) ?? '' };
}

/** The ADMIN of a new device of `brand` who subscribed to its events by e-mail; the device's credentials. */
async function subscribedDevice(tp: TestPortal, owner: SignedInUser, brand: BrandId) {
  const device = await provisionFor(tp, brand);
  expect((await claim(owner.client, device.deviceid, device.setupPassword)).status).toBe(200);
  const res = await owner.client.put(`/api/device/${device.deviceid}/alerts`, SUBSCRIBE);
  expect(res.status, res.text).toBe(200);
  return { id: device.deviceid, key: device.deviceKey };
}

const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s/]+/g)].map((m) => m[0]);

describe('links under the brand of the user or device (PUBLIC_URL)', () => {
  let mail: MailCatcher;
  let tp: TestPortal;

  beforeAll(async () => {
    mail = await startMailCatcher();
    tp = await startPortal(mail, { PUBLIC_URL });
  });
  afterAll(async () => {
    await tp?.close();
    await mail?.close();
  });

  const alerts = () => tp.portal.app.services.alerts;
  const ingest = async (device: { id: string; key: string }, msg: string) => {
    expect(
      await postRecords(tp, device, { ts: tp.clock.now().getTime() / 1000, events: [{ msg, severity: 'ALARM' }] }),
    ).toBe(200);
    await alerts().settled();
  };

  it('a user signed up on the tank host keeps the tank brand; its alerts link to the tank host, at once and in the later digest', async () => {
    const { user: tank, verifyOrigin } = await signUpOn(tp, mail, 'tank.portal.example.com');
    expect(verifyOrigin).toBe(TANK);
    expect(await brandOfUser(tp, tank.email)).toBe('tank');
    // A default-brand user of the same device: their alerts keep their own brand's host.
    const other = await signedInUser(tp);
    const device = await subscribedDevice(tp, tank, 'default');
    expect(
      (await tank.client.post(`/api/device/${device.id}/user`, { targetEmail: other.email, targetPermission: 'VIEW' }))
        .status,
    ).toBe(200);
    expect((await other.client.put(`/api/device/${device.id}/alerts`, SUBSCRIBE)).status).toBe(200);

    // The first alert of the hour goes at once, while ingest stores the device's record.
    await ingest(device, 'Engine hot');
    const [first] = mail.to(tank.email).filter((m) => m.subject.includes('Engine hot'));
    expect(first, 'the first alert').toBeDefined();
    expect(first!.text).toContain(`Device: ${TANK}/data/${device.id}`);
    expect(first!.text).toMatch(
      new RegExp(`Stop alert e-mails for this device: ${TANK}/unsubscribe/[A-Za-z0-9_-]{43}`),
    );
    expect(new Set(linksIn(first!.text))).toEqual(new Set([TANK]));
    const [otherFirst] = mail.to(other.email).filter((m) => m.subject.includes('Engine hot'));
    expect(new Set(linksIn(otherFirst!.text))).toEqual(new Set([PUBLIC_URL]));

    // A later alert of the hour waits; the digest goes from the timer's work, in no request of the user.
    await ingest(device, 'Still hot');
    expect(mail.to(tank.email)).toHaveLength(2); // the verification link and the first alert
    tp.clock.advance(2 * HOUR);
    await alerts().tick();
    await alerts().settled();
    const digest = await mail.waitFor((m) => m.to.includes(tank.email) && m.subject.includes('more alert'));
    expect(digest.text).toContain('Still hot');
    expect(digest.text).toContain(`Device: ${TANK}/data/${device.id}`);
    expect(new Set(linksIn(digest.text))).toEqual(new Set([TANK]));
  });

  it("a tank device's label QR code opens the tank host's add page, whoever prints it from whichever host", async () => {
    const tankDevice = await provisionFor(tp, 'tank');
    const plain = await provisionFor(tp);
    expect(tankDevice).toMatchObject({ brand: 'tank', publicUrlConfigured: true });
    expect(plain).toMatchObject({ brand: 'default', publicUrlConfigured: true });
    const staff = await provisioningStaff(tp);
    expect((await staff.client.get(`/api/prov-portal-get-device/${tankDevice.deviceid}`)).body).toMatchObject({
      brand: 'tank',
      publicUrlConfigured: true,
    });

    const tankAdd = `${TANK}/add?device=${tankDevice.deviceid}`;
    for (const host of [undefined, 'carbon.portal.example.com', 'evil.example']) {
      expect(await labelQr(staff.client, tankDevice.deviceid, host)).toEqual({ png: tankAdd, pdf: tankAdd });
      const plainAdd = `${PUBLIC_URL}/add?device=${plain.deviceid}`;
      expect(await labelQr(staff.client, plain.deviceid, host)).toEqual({ png: plainAdd, pdf: plainAdd });
    }
    // The batch PDF: each page under its own device's brand; no warning with PUBLIC_URL set.
    const batch = await raw(staff.client, 'POST', '/api/prov-portal-labels', {
      deviceList: [plain.deviceid, tankDevice.deviceid],
    });
    expect(batch.status).toBe(200);
    expect(batch.headers[PORTAL_WARNING_HEADER]).toBeUndefined();
    expect(qrOfPng(await pdfPagePng(batch.bytes, 1))).toBe(`${PUBLIC_URL}/add?device=${plain.deviceid}`);
    expect(qrOfPng(await pdfPagePng(batch.bytes, 2))).toBe(tankAdd);

    // An edit moves the device to another brand (and says so in its log); one without a brand keeps it.
    const moved = await staff.client.post(`/api/prov-portal-edit-device/${plain.deviceid}`, {
      model: 'ORB-C1',
      brand: 'pump',
    });
    expect(moved.body).toMatchObject({ brand: 'pump' });
    const kept = await staff.client.post(`/api/prov-portal-edit-device/${plain.deviceid}`, { model: 'ORB-X1' });
    expect(kept.body).toMatchObject({ brand: 'pump', model: 'ORB-X1' });
    const pumpAdd = `https://pump.portal.example.com/add?device=${plain.deviceid}`;
    expect(await labelQr(staff.client, plain.deviceid)).toEqual({ png: pumpAdd, pdf: pumpAdd });
    const log = (await staff.client.get(`/api/prov-portal-get-device-log/${plain.deviceid}`)).body as {
      entries: { message: string }[];
    };
    expect(log.entries.map((e) => e.message)).toContain('Edited: ORB-C1 SFW003-1.0.0 brand pump');
    expect(
      (
        (await staff.client.get(`/api/prov-portal-get-device-log/${tankDevice.deviceid}`)).body as typeof log
      ).entries.map((e) => e.message),
    ).toContain('Provisioned: ORB-C1 SFW003-1.0.0 for the tank brand');
  });

  it('an unknown brand is refused with 400 and nothing is made', async () => {
    const { client } = await provisioningStaff(tp);
    const id = randomDeviceId('B');
    for (const brand of ['tanker', '', 'Tank', '__proto__', 7, null]) {
      const res = await client.post(`/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1', brand });
      expect(res.status, JSON.stringify(brand)).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/brand/);
    }
    expect((await client.get(`/api/prov-portal-get-device/${id}`)).status).toBe(404);
  });

  it('a forged Host header changes no link: sign-up, reset, the sign-up warning and invitations', async () => {
    // Sign-up: an unknown host is the default brand, whose configured host the link names.
    const forgedEmail = uniqueEmail('forged');
    await tp
      .client()
      .post('/api/auth/signup', { email: forgedEmail, password: 'password-1' }, { host: 'evil.example' });
    const forgedMail = await mail.waitFor((m) => m.to.includes(forgedEmail));
    expect(new URL(linkIn(forgedMail, 'verify').url).origin).toBe(PUBLIC_URL);
    // A host that merely starts with a brand prefix selects that brand, never itself as the link's host.
    const prefixedEmail = uniqueEmail('prefixed');
    await tp
      .client()
      .post('/api/auth/signup', { email: prefixedEmail, password: 'password-1' }, { host: 'tank.evil.example' });
    const prefixedMail = await mail.waitFor((m) => m.to.includes(prefixedEmail));
    expect(new URL(linkIn(prefixedMail, 'verify').url).origin).toBe(TANK);

    // Reset: the link names the user's own brand's host, whatever host the request names.
    const tankUser = await makeUser(tp, { brand: 'tank' });
    const plainUser = await makeUser(tp);
    for (const host of ['evil.example', 'tank.portal.example.com.evil.com', 'portal.example.com']) {
      await tp.client().post('/api/auth/reset', { email: tankUser.email }, { host });
      await tp.client().post('/api/auth/reset', { email: plainUser.email }, { host });
    }
    const resets = (email: string) => mail.to(email).map((m) => new URL(linkIn(m, 'resetpassword').url).origin);
    await expect.poll(() => resets(tankUser.email).length).toBe(3);
    await expect.poll(() => resets(plainUser.email).length).toBe(3);
    expect(new Set(resets(tankUser.email))).toEqual(new Set([TANK]));
    expect(new Set(resets(plainUser.email))).toEqual(new Set([PUBLIC_URL]));
    expect(mail.to(tankUser.email)[0]!.subject).toBe('Reset your Tank password');

    // Signing up again with a tank user's address (from a forged host): the owner's warning is under the tank brand.
    await tp
      .client()
      .post('/api/auth/signup', { email: tankUser.email, password: 'password-2' }, { host: 'evil.example' });
    const warning = await mail.waitFor((m) => m.to.includes(tankUser.email) && m.subject.startsWith('Someone tried'));
    expect(warning.subject).toBe('Someone tried to create a Tank account with your address');
    expect(new Set(linksIn(warning.text))).toEqual(new Set([TANK]));

    // Group shares from a forged host: a member gets their own brand's host, a new address the configured default.
    const admin = await signedInUser(tp);
    const made = await admin.client.post('/api/group', { groupName: 'Forged' }, { host: 'evil.example' });
    const groupid = (made.body as { groupid: string }).groupid;
    const newcomer = uniqueEmail('newcomer');
    for (const targetEmail of [tankUser.email, newcomer])
      expect(
        (
          await admin.client.post(
            `/api/group/${groupid}/user`,
            { targetEmail, targetPermission: 'VIEW' },
            { host: 'evil.example' },
          )
        ).status,
      ).toBe(200);
    const shared = await mail.waitFor((m) => m.to.includes(tankUser.email) && m.subject.includes('access to a group'));
    expect(shared.text).toContain(`${TANK}/group/${groupid}`);
    expect(shared.subject).toBe('You have been given access to a group on Tank');
    const invited = await mail.waitFor((m) => m.to.includes(newcomer));
    expect(invited.text).toContain(`${PUBLIC_URL}/signup`);
    expect(new Set(linksIn(invited.text))).toEqual(new Set([PUBLIC_URL]));

    // A device invitation from a forged host: the configured host of the brand the request's host selects.
    const device = await provisionFor(tp);
    expect((await claim(admin.client, device.deviceid, device.setupPassword)).status).toBe(200);
    const deviceInvitee = uniqueEmail('device-invitee');
    const granted = await admin.client.post(
      `/api/device/${device.deviceid}/user`,
      { targetEmail: deviceInvitee, targetPermission: 'VIEW' },
      { host: 'evil.example' },
    );
    expect(granted.status, granted.text).toBe(200);
    const deviceInvite = await mail.waitFor((m) => m.to.includes(deviceInvitee));
    expect(new Set(linksIn(deviceInvite.text))).toEqual(new Set([PUBLIC_URL]));

    // Nothing anywhere pointed at the forged hosts.
    for (const m of mail.messages) expect(m.text).not.toMatch(/evil/);
  });
});

describe('BRAND_HOSTS, and labels without PUBLIC_URL', () => {
  let mail: MailCatcher;
  let tp: TestPortal;
  /** Without PUBLIC_URL, http://localhost:{port} with the brand's prefix. */
  const local = (prefix = '') => `http://${prefix}localhost:${tp.port}`;

  beforeAll(async () => {
    mail = await startMailCatcher();
    tp = await startPortal(mail, { BRAND_HOSTS: JSON.stringify({ tank: `${TANK_OWN_HOST}/` }) });
  });
  afterAll(async () => {
    await tp?.close();
    await mail?.close();
  });

  it("a sign-up on a brand's own host is that brand; its mails and its devices' labels use that host", async () => {
    const { user, verifyOrigin } = await signUpOn(tp, mail, 'portal.tankco.example');
    expect(verifyOrigin).toBe(TANK_OWN_HOST);
    expect(await brandOfUser(tp, user.email)).toBe('tank');
    // The prefix host is still the tank brand; its links go to the brand's own host.
    expect((await signUpOn(tp, mail, 'tank.portal.example.com')).verifyOrigin).toBe(TANK_OWN_HOST);
    // Other brands keep the prefix rule (here before localhost: PUBLIC_URL is not set).
    expect((await signUpOn(tp, mail, 'pump.portal.example.com')).verifyOrigin).toBe(local('pump.'));

    const device = await subscribedDevice(tp, user, 'tank');
    expect(
      await postRecords(tp, device, { ts: tp.clock.now().getTime() / 1000, events: [{ msg: 'Overflow', lv: 35 }] }),
    ).toBe(200);
    await tp.portal.app.services.alerts.settled();
    const alert = await mail.waitFor((m) => m.to.includes(user.email) && m.subject.includes('Overflow'));
    expect(new Set(linksIn(alert.text))).toEqual(new Set([TANK_OWN_HOST]));

    await tp.client().post('/api/auth/reset', { email: user.email }, { host: 'portal.example.com' });
    const reset = await mail.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Reset'));
    expect(new URL(linkIn(reset, 'resetpassword').url).origin).toBe(TANK_OWN_HOST);

    const staff = await provisioningStaff(tp);
    const add = `${TANK_OWN_HOST}/add?device=${device.id}`;
    expect(await labelQr(staff.client, device.id)).toEqual({ png: add, pdf: add });
  });

  it('without PUBLIC_URL each label answer warns that the QR code opens localhost, and the provisioning record says so', async () => {
    const device = await provisionFor(tp, 'pump');
    expect(device).toMatchObject({ brand: 'pump', publicUrlConfigured: false });
    const staff = await provisioningStaff(tp);
    expect((await staff.client.get(`/api/prov-portal-get-device/${device.deviceid}`)).body).toMatchObject({
      publicUrlConfigured: false,
    });
    for (const path of [
      `/api/prov-portal-get-device-label/${device.deviceid}`,
      `/api/prov-portal-get-device-label/${device.deviceid}?format=png`,
    ]) {
      const res = await raw(staff.client, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers[PORTAL_WARNING_HEADER]).toBe(PUBLIC_ADDRESS_MESSAGES.labelWithoutPublicUrl);
    }
    const batch = await raw(staff.client, 'POST', '/api/prov-portal-labels', { deviceList: [device.deviceid] });
    expect(batch.status).toBe(200);
    expect(batch.headers[PORTAL_WARNING_HEADER]).toBe(PUBLIC_ADDRESS_MESSAGES.labelWithoutPublicUrl);
    // The demo on this machine still works: the brand's localhost host (*.localhost is loopback).
    const add = `${local('pump.')}/add?device=${device.deviceid}`;
    expect(await labelQr(staff.client, device.deviceid)).toEqual({ png: add, pdf: add });
  });
});
