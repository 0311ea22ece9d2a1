// The device's Scripting page in Chromium against the real server and a simulated device (issue
// 15; spec 2 sections 2, 6-9; ledger SUB-20 to SUB-24, API-25; DESIGN.md section 5): a script
// typed in the editor and saved with Ctrl+S goes out as base64 (the PUT body decodes to the
// editor's text, GET /script answers it) and is applied by the simulated device; a script over the
// limit is refused before anything is sent; one USER's lock keeps a second USER read-only (the
// server refuses their PUT too) until an ADMIN forces it open; the editor's theme survives a
// reload and is cleared when another user signs in; a stored script that does not decode opens an
// empty editor with a message; an OPERATOR is refused; a device on firmware older than SFW003
// shows 'Firmware Update Required'; axe-clean at 1280 and 390 px in both themes. And from the
// build: CodeMirror is in no chunk that another route loads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { DEVICE_CONFIG_MESSAGES, SCRIPT_MAX_BYTES, scriptFirmwareMessage, type ScriptResponse } from '@portal/core';
import { startFleet, type Fleet } from '../../apps/simulator/src/index';
import { chromiumAvailable, PHONE } from './browser';
import { freshDeviceId, startStack, uniqueEmail, type Stack } from './harness';
import { DEMO, seriousAxeViolations, signIn, signedInPageOf, until } from './helpers';
import { ROUTE_BUDGETS } from './route-budgets';
import { readBuild } from './route-sizes';

const required = process.env.REQUIRE_SERVICES === '1';

const SAVED = "Saved. The script is delivered at the device's next contact.";
const DECODE_FAILED =
  'The saved script could not be decoded (it is not base64 of UTF-8 text), so the editor starts empty. Saving replaces it.';
const REFUSED = "Scripting is open to the device's administrators and users.";
const OLD_FIRMWARE = 'SFW002-1.4.0';
/** A script with a non-ASCII comment, brackets and quotes: inserted as it is, not typed key by key. */
const SCRIPT = [
  '// Pump guard: température > 12.5 bar → alarm',
  'const LIMIT = 12.5;',
  'function onMeasure(data) {',
  '  if (data.pressure > LIMIT) Log.warn("high: " + data.pressure);',
  '  return { ok: true };',
  '}',
].join('\n');
const fromBase64 = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe.skipIf(!chromiumAvailable() && !required)('device Scripting page', () => {
  let stack: Stack;
  let demo: ReturnType<Stack['apiClient']>;
  let fleet: Fleet | undefined;
  let deviceid: string;
  let oldDeviceid: string;
  const contexts: BrowserContext[] = [];
  const people = {
    USER: { email: uniqueEmail('script-user'), password: 'script-user-password-1' },
    USER2: { email: uniqueEmail('script-user2'), password: 'script-user2-password-1' },
    OPERATOR: { email: uniqueEmail('script-operator'), password: 'script-operator-password-1' },
  } as const;
  const apiAs = async (person: { email: string; password: string }) => {
    const client = stack.apiClient();
    expect((await client('POST', '/api/auth/login', person)).status).toBe(200);
    return client;
  };

  const editor = (page: Page) => page.locator('.sc-editor .cm-content');
  /** The editor's text, line by line as CodeMirror draws it. */
  const editorText = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('.sc-editor .cm-content .cm-line'), (l) => l.textContent ?? '').join('\n'),
    );
  const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
  const lockText = (page: Page) => page.locator('.sc-lock__text');
  const notice = (page: Page) => page.locator('.sc-notice');
  const openScript = async (page: Page, id = deviceid) => {
    await page.goto(stack.url(`/script/${id}`));
    await editor(page).waitFor();
  };
  /** Every PUT the page sends to the device's script calls. */
  const putsOf = (page: Page) => {
    const seen: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname.startsWith(`/api/device/${deviceid}/`)) seen.push(r);
    });
    return seen;
  };
  const scriptNow = async () => (await demo<ScriptResponse>('GET', `/api/device/${deviceid}/script`)).body;

  beforeAll(async () => {
    stack = await startStack();
    demo = stack.apiClient();
    expect((await demo('POST', '/api/auth/login', DEMO)).status).toBe(200);
    const device = await stack.provisionDevice(freshDeviceId('SCR'), 'ORB-C1', 'Script Pump');
    deviceid = device.id;
    const old = await stack.provisionDevice(freshDeviceId('OLD'), 'ORB-C1', 'Old Pump', OLD_FIRMWARE);
    oldDeviceid = old.id;
    for (const d of [device, old]) {
      expect((await demo('POST', `/api/device/${d.id}/user`, { setupPassword: d.setupPassword })).status).toBe(200);
    }
    for (const [key, person] of Object.entries(people)) {
      await stack.createVerifiedUser(person.email, person.password);
      const grant = await demo('POST', `/api/device/${deviceid}/user`, {
        targetEmail: person.email,
        targetPermission: key === 'USER2' ? 'USER' : key,
      });
      expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    }
    fleet = startFleet({
      devices: [{ id: device.id, key: device.deviceKey, model: 'ORB-C1' }],
      transport: 'mqtt',
      mqttUrl: stack.mqttUrl,
      httpUrl: stack.url(),
      baseInterval: 2,
      staggerMs: 0,
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    for (const context of contexts) await context.close();
    await stack?.close();
  });

  it('saves the typed script with Ctrl+S as base64 of the editor text; GET /script answers it; the device applies it', async () => {
    const page = await signedInPageOf(stack, contexts);
    const puts = putsOf(page);
    await page.goto(stack.url(`/data/${deviceid}`));
    await page.getByRole('toolbar', { name: 'Device pages' }).getByRole('link', { name: 'Scripting' }).click();
    await page.waitForURL(`**/script/${deviceid}`);
    await editor(page).waitFor();
    await expect
      .poll(() => page.locator('nav[aria-label="Breadcrumb"] li[aria-current="page"]').innerText())
      .toBe('Scripting');
    await expect.poll(() => page.title()).toBe('Portal - Script Pump: Scripting');
    expect(await page.locator('.sc-tag').innerText()).toBe('No script yet');
    expect(await editorText(page)).toBe('');
    expect(await save(page).isDisabled()).toBe(true);

    await editor(page).focus();
    await page.keyboard.insertText(SCRIPT);
    await expect.poll(() => editorText(page)).toBe(SCRIPT);
    const bytes = Buffer.byteLength(SCRIPT);
    expect(await page.locator('.sc-size').innerText()).toBe(`${bytes} / 20,000 bytes`);
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/device/${deviceid}/script`),
    );
    await page.keyboard.press('Control+s');
    expect((await answered).status()).toBe(200);
    await notice(page).getByText(SAVED).waitFor();
    expect(await page.locator('.sc-tag').innerText()).toBe('Pending delivery');

    // SUB-22: the body is {scriptFileBase64} and decodes to the editor's text; API-25: GET answers it.
    const bodies = puts.map((r) => r.postDataJSON() as Record<string, string>);
    expect(bodies).toHaveLength(1);
    expect(Object.keys(bodies[0]!)).toEqual(['scriptFileBase64']);
    expect(fromBase64(bodies[0]!.scriptFileBase64!)).toBe(await editorText(page));
    expect(fromBase64(bodies[0]!.scriptFileBase64!)).toBe(SCRIPT);
    expect((await scriptNow()).data).toBe(bodies[0]!.scriptFileBase64);

    // The simulated device takes it; the page, opened again, reads it back decoded and applied.
    await until('the device to apply the script', async () => !(await scriptNow()).pending);
    expect(fleet!.devices[0]!.script).toBe(bodies[0]!.scriptFileBase64);
    await openScript(page);
    await page.locator('.sc-tag', { hasText: 'Applied on the device' }).waitFor();
    expect(await editorText(page)).toBe(SCRIPT);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('refuses a script over the limit before sending it, with the limit named', async () => {
    const page = await signedInPageOf(stack, contexts);
    const puts = putsOf(page);
    await openScript(page);
    await editor(page).focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('x'.repeat(SCRIPT_MAX_BYTES + 1));
    await page.locator('.sc-size.sc-size--over', { hasText: '20,001 / 20,000 bytes' }).waitFor();
    await save(page).click();
    await page.getByRole('alert').filter({ hasText: DEVICE_CONFIG_MESSAGES.scriptTooLarge }).waitFor();
    expect(puts).toHaveLength(0);
    // Revert gives the saved script back.
    await page.getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => editorText(page)).toBe(SCRIPT);
    expect(puts).toHaveLength(0);
  });

  it("one USER's lock makes a second USER's editor read-only and the server refuses their save; an ADMIN forces it open", async () => {
    const first = await signedInPageOf(stack, contexts, people.USER);
    const firstPuts = putsOf(first);
    await openScript(first);
    await lockText(first)
      .getByText(/Not locked\./)
      .waitFor();
    await first.getByRole('button', { name: 'Lock', exact: true }).click();
    await lockText(first)
      .getByText(/You hold the lock since/)
      .waitFor();
    await first.getByRole('button', { name: 'Unlock', exact: true }).click();
    await lockText(first)
      .getByText(/Not locked\./)
      .waitFor();
    await first.getByRole('button', { name: 'Lock', exact: true }).click();
    await lockText(first)
      .getByText(/You hold the lock since/)
      .waitFor();
    // SUB-23: Lock sends {lock: true}, Unlock {lock: false}.
    expect(firstPuts.filter((r) => r.url().endsWith('/script-lock')).map((r) => r.postDataJSON() as unknown)).toEqual([
      { lock: true },
      { lock: false },
      { lock: true },
    ]);
    const lock = (await scriptNow()).lock!;
    expect(lock.email).toBe(people.USER.email);

    const second = await signedInPageOf(stack, contexts, people.USER2);
    await openScript(second);
    const held = lockText(second);
    await held.getByText(`Locked by ${people.USER.email} since`).waitFor();
    expect(await held.locator('time').getAttribute('datetime')).toBe(lock.since);
    expect(await second.locator('.sc-keys').innerText()).toContain(
      `Read-only while ${people.USER.email} holds the lock.`,
    );
    expect(await save(second).isDisabled()).toBe(true);
    expect(await second.getByRole('button', { name: 'Force unlock' }).count()).toBe(0);
    expect(await editor(second).getAttribute('aria-readonly')).toBe('true');
    await editor(second).click();
    await second.keyboard.type('stolen');
    expect(await editorText(second)).toBe(SCRIPT);
    // The server refuses the second USER's save, naming the holder, and keeps the script.
    const stranger = await apiAs(people.USER2);
    const refused = await stranger<{ message: string }>('PUT', `/api/device/${deviceid}/script`, {
      scriptFileBase64: toBase64('stolen'),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`The script is locked by ${people.USER.email} since ${lock.since}.`);
    expect(fromBase64((await scriptNow()).data)).toBe(SCRIPT);
    expect(await seriousAxeViolations(second)).toEqual([]);

    // The ADMIN sees who holds it and forces it open after confirming.
    const admin = await signedInPageOf(stack, contexts);
    const adminPuts = putsOf(admin);
    await openScript(admin);
    await lockText(admin).getByText(`Locked by ${people.USER.email} since`).waitFor();
    await admin.getByRole('button', { name: 'Force unlock' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Force unlock' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`${people.USER.email} holds the script lock since`);
    expect(await seriousAxeViolations(admin)).toEqual([]);
    // Cancel is focused first: Escape closes without sending anything.
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(adminPuts).toHaveLength(0);
    await admin.getByRole('button', { name: 'Force unlock' }).click();
    await dialog.getByRole('button', { name: 'Force unlock' }).click();
    await lockText(admin)
      .getByText(/Not locked\./)
      .waitFor();
    expect(adminPuts.map((r) => new URL(r.url()).pathname)).toEqual([`/api/device/${deviceid}/force-script-unlock`]);
    expect((await scriptNow()).lock).toBeNull();

    // The second USER, reloaded, may edit and save again.
    await openScript(second);
    await lockText(second)
      .getByText(/Not locked\./)
      .waitFor();
    expect(await editor(second).getAttribute('aria-readonly')).not.toBe('true');
  });

  it('keeps the dark theme across a reload and clears it when another user signs in (SUB-24)', async () => {
    const page = await signedInPageOf(stack, contexts);
    await openScript(page);
    const pressed = (name: string) => page.getByRole('group', { name: 'Editor theme' }).getByRole('button', { name });
    expect(await pressed('Light').getAttribute('aria-pressed')).toBe('true');
    const ground = () => page.locator('.sc-editor .cm-editor').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await ground()).toBe('rgb(255, 255, 255)');
    await pressed('Dark').click();
    expect(await pressed('Dark').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(ground).toBe('rgb(27, 32, 41)');
    expect(await page.evaluate(() => localStorage.getItem('portal.scriptTheme'))).toBe('dark');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.reload();
    await editor(page).waitFor();
    expect(await pressed('Dark').getAttribute('aria-pressed')).toBe('true');
    expect(await ground()).toBe('rgb(27, 32, 41)');

    // Another user on this browser: the theme goes with the previous user's favourites.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto(stack.url('/login'));
    await signIn(page, people.USER.email, people.USER.password);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('portal.scriptTheme'))).toBeNull();
    await openScript(page);
    expect(await pressed('Light').getAttribute('aria-pressed')).toBe('true');
    expect(await ground()).toBe('rgb(255, 255, 255)');
  });

  it('opens a stored script that does not decode as an empty editor with a message (SUB-21)', async () => {
    // Valid base64 of the byte 0xFF, which is not UTF-8 text.
    expect((await demo('PUT', `/api/device/${deviceid}/script`, { scriptFileBase64: '/w==' })).status).toBe(200);
    const page = await signedInPageOf(stack, contexts, people.USER);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openScript(page);
    await page.getByRole('alert').filter({ hasText: DECODE_FAILED }).waitFor();
    expect(await editorText(page)).toBe('');
    expect(await save(page).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    // Saving replaces it.
    await editor(page).focus();
    await page.keyboard.insertText(SCRIPT);
    await save(page).click();
    await notice(page).getByText(SAVED).waitFor();
    expect(fromBase64((await scriptNow()).data)).toBe(SCRIPT);
  });

  it('fits a phone: no sideways scroll, axe-clean, the editor usable', async () => {
    const page = await signedInPageOf(stack, contexts, people.USER, { viewport: PHONE });
    await openScript(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const box = await page.locator('.sc-editor').boundingBox();
    expect(box!.width).toBeGreaterThan(280);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('refuses an OPERATOR: the page says why, the server answers 403, and no editor code is loaded (SUB-20)', async () => {
    const page = await signedInPageOf(stack, contexts, people.OPERATOR);
    const editorChunks: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/script-editor-/.test(r.url())) editorChunks.push(r.url());
    });
    const answer = page.waitForResponse((r) => r.url().endsWith(`/api/device/${deviceid}/script`));
    await page.goto(stack.url(`/script/${deviceid}`));
    expect((await answer).status()).toBe(403);
    const refusal = page.getByRole('alert').filter({ hasText: 'You do not have permission to do this.' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(REFUSED);
    expect(await page.locator('.sc-editor').count()).toBe(0);
    expect(editorChunks).toEqual([]);
    const operator = await apiAs(people.OPERATOR);
    expect((await operator('PUT', `/api/device/${deviceid}/script`, { scriptFileBase64: toBase64('x') })).status).toBe(
      403,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("shows 'Firmware Update Required' for a device on firmware older than SFW003, and the server refuses its script", async () => {
    const page = await signedInPageOf(stack, contexts);
    await page.goto(stack.url(`/script/${oldDeviceid}`));
    await page.getByRole('heading', { level: 2, name: 'Firmware Update Required' }).waitFor();
    expect(await page.locator('.sc-state').innerText()).toContain(
      `Scripting needs firmware SFW003 or later; this device runs ${OLD_FIRMWARE}.`,
    );
    expect(await page.getByRole('link', { name: 'Update the firmware in Settings.' }).getAttribute('href')).toBe(
      `/config/${oldDeviceid}`,
    );
    expect(await page.locator('.sc-editor').count()).toBe(0);
    const refused = await demo<{ message: string }>('PUT', `/api/device/${oldDeviceid}/script`, {
      scriptFileBase64: toBase64(SCRIPT),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(scriptFirmwareMessage(OLD_FIRMWARE));
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('CodeMirror in the build', () => {
  const build = readBuild();
  const mentionsCodeMirror = (files: string[]) =>
    files.filter((f) => f.endsWith('.js') && readFileSync(join(build.dist, f), 'utf8').includes('cm-editor'));

  it('is loaded by the Scripting page and by no other route', () => {
    const script = ROUTE_BUDGETS.find((b) => b.module === 'script-route')!;
    expect(mentionsCodeMirror(build.sizeOf(script.module, script.alsoLoads).files)).toHaveLength(1);
    // Without its lazy editor the Scripting route itself carries none of it.
    expect(mentionsCodeMirror(build.sizeOf(script.module).files)).toEqual([]);
    for (const budget of ROUTE_BUDGETS.filter((b) => b !== script)) {
      expect(mentionsCodeMirror(build.sizeOf(budget.module, budget.alsoLoads).files), budget.path).toEqual([]);
    }
  });
});
