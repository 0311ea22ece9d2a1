/**
 * Devices: provisioning, device keys, claiming with the setup password, device users and
 * invitations, the settings record, setup passwords and the distributor actions.
 *
 * Access to every device call is decided by the one gate (modules/access): a stranger gets 404
 * 'Device not found', the same answer as for a device that does not exist; a role without the
 * capability gets 403.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  isDeviceRouteId,
  DEVICE_MESSAGES,
  PASSWORDS_MESSAGES,
  PLANS,
  authoredChangeError,
  PROV_MESSAGES,
  PROV_TEST_COMMAND,
  can,
  canRunDistributorAction,
  claimPlacesInGroup,
  deviceAddOutcome,
  deviceFamily,
  devicePlan,
  deviceTier,
  effectiveRole,
  effectiveDataStorageDays,
  isDeviceNameEditable,
  isProvisioning,
  isStaffAdmin,
  noPassActive,
  noPassModeFor,
  STAFF_TIME_DIFFERENCE_MIN_S,
  notesImagePath,
  provTestLogMessage,
  removesLastAdmin,
  type BrandConfig,
  type Capability,
  type DeviceRole,
  type DeviceSettingsPutBody,
  type DeviceSettingsResponse,
  type DeviceUserEntry,
  type DeviceUserGroupAccess,
  type DeviceUserPostBody,
  type DeviceUserResult,
  type DistributorActionBody,
  type ImageType,
  type NotesImagePutBody,
  type NotesImageSlot,
  type ProvDevice,
  type ProvEditDeviceBody,
  type ProvLogEntry,
  type ProvRunTestBody,
  type CommandView,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict, forbidden, rateLimited } from '../../errors';
import { sameDigest, sha256 } from '../../security';
import type { Mailer } from '../mail/mail.service';
import type { PublicAddresses } from '../../public-addresses';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { DeliveryService } from '../delivery/delivery.service';
import type { GroupsService } from '../groups/groups.service';
import type { TelemetryService } from '../telemetry/telemetry.service';
import type { DeviceRegistry } from './devices.registry';
import { accessGrantedMail } from '../mail/access-granted-mail';
import * as repo from './devices.repository';
import type { DeviceRow } from './devices.repository';
import { asRecord, deviceName, toProvDevice, type ProvRecord, type ProvisionedDevice } from './devices.summary';

export type { DeviceRow } from './devices.repository';
export type { DeviceSummary, ProvisionedDevice } from './devices.summary';
export { newSetupPassword } from './devices.summary';

const MINUTE = 60_000;

export interface DeviceLimits {
  /** Wrong setup passwords per device id per window. */
  claimAttemptsPerDevice: number;
  windowMs: number;
}

export const DEFAULT_DEVICE_LIMITS: DeviceLimits = { claimAttemptsPerDevice: 5, windowMs: 15 * MINUTE };

export interface DevicesDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Whether PUBLIC_URL is set: the provisioning record says so, as its label's QR code opens localhost otherwise. */
  addresses: Pick<PublicAddresses, 'configured'>;
  limits?: DeviceLimits;
  /** The caller's second factor (auth service), asked before a setup password is shown; absent: refused for MFA users. */
  mfa?: MfaStepUp;
  /** The one access gate. */
  access: AccessService;
  /** Puts a device claimed with {setupPassword, groupid} into the group (the groups module). */
  groups: Pick<GroupsService, 'checkPlacement' | 'placeClaimed' | 'membersOfDevice'>;
  /** The devices table as other modules read and write it (created before this service). */
  registry: DeviceRegistry;
  /** Queues a command for the device on behalf of staff (the delivery module), for the provisioning test run. */
  delivery: Pick<DeliveryService, 'queueCommand'>;
  /** Readings of the device (telemetry): DATA_latest and the staff clock difference of the settings record. */
  readings: Pick<TelemetryService, 'latest' | 'clockDifference'>;
}

/** Checks of the caller's second factor, from the auth service. */
export interface MfaStepUp {
  /** True when `code` is the user's current TOTP code, not used before. */
  checkTotp(user: User, code: string): Promise<boolean>;
  /** Texts an SMS user a step-up code; false when one was sent less than a minute ago (nothing new sent). */
  sendStepUpSms(user: User, brand: BrandConfig): Promise<boolean>;
  /** True when `code` is the user's live step-up SMS code (accepted once). */
  checkStepUpSms(user: User, code: string): Promise<boolean>;
}

/** Where request-dependent text comes from (brand, link origin). */
export interface DeviceRequestContext {
  brand: BrandConfig;
  linkOrigin: string;
}

const badClaim = () => new AppError(403, 'FORBIDDEN', DEVICE_MESSAGES.badClaim);

/** The notes with images[slot] set to the address of the stored image, or null for none. */
function withNotesImage(
  notes: Record<string, unknown>,
  slot: NotesImageSlot,
  path: string | null,
): Record<string, unknown> {
  return { ...notes, images: { ...asRecord(notes.images), [slot]: path } };
}

/** The config with settings.device's model, fw (and name when given) replaced. */
function withDeviceBlock(
  config: Record<string, unknown>,
  fields: { model: string; fw: string; name?: string | undefined },
): Record<string, unknown> {
  const settings = asRecord(config.settings);
  const device = asRecord(settings.device);
  return {
    ...config,
    settings: {
      ...settings,
      device: {
        ...device,
        model: fields.model,
        fw: fields.fw,
        ...(fields.name !== undefined ? { name: fields.name } : {}),
      },
    },
  };
}

export function createDevicesService(deps: DevicesDeps) {
  const { db, clock, access, registry } = deps;
  const limits = deps.limits ?? DEFAULT_DEVICE_LIMITS;
  const nowSeconds = () => clock.now().getTime() / 1000;

  /** A provisioning record as answered: with whether its label's QR code works from a phone (PUBLIC_URL set). */
  function withLabelFacts<T extends ProvRecord>(record: T): T & Pick<ProvDevice, 'publicUrlConfigured'> {
    return { ...record, publicUrlConfigured: deps.addresses.configured };
  }

  async function loadDevice(deviceId: string): Promise<DeviceRow> {
    const row = await repo.findDevice(db, deviceId);
    if (!row) throw deviceNotFound();
    return row;
  }

  /** Grant changes that keep at least one ADMIN; run in a transaction with the device row locked. */
  async function changeGrant(deviceId: string, userId: string, permission: DeviceRole | null): Promise<void> {
    await db.transaction(async (tx) => {
      if (!(await repo.findDevice(tx, deviceId, true))) throw deviceNotFound();
      const current = await repo.findGrant(tx, deviceId, userId);
      if (current === null) throw new AppError(404, 'NOT_FOUND', DEVICE_MESSAGES.userNotFound);
      const { admins } = await repo.countGrants(tx, deviceId);
      if (removesLastAdmin(current, permission, admins)) throw conflict(DEVICE_MESSAGES.lastAdmin);
      if (permission === null) await repo.deleteGrant(tx, deviceId, userId);
      else await repo.upsertGrant(tx, deviceId, userId, permission, clock.now());
    });
  }

  /** Staff admins see the device-versus-server time difference when it is at least 5 s (spec 2 section 6). */
  async function staffTimeDifference(deviceId: string, user: User): Promise<{ timeDifferenceS?: number }> {
    if (!isStaffAdmin(user.userGroups)) return {};
    const difference = await deps.readings.clockDifference(deviceId);
    return difference !== null && Math.abs(difference) >= STAFF_TIME_DIFFERENCE_MIN_S
      ? { timeDifferenceS: difference }
      : {};
  }

  async function settingsRecord(row: DeviceRow, role: DeviceRole, user: User): Promise<DeviceSettingsResponse> {
    const nowMs = clock.now().getTime();
    const plan = devicePlan(row, nowMs);
    return {
      deviceid: row.id,
      deviceSettings: {
        PORTAL_displaySettings: row.display_settings,
        PORTAL_deviceName: deviceName(row),
        PORTAL_deviceNotes: row.notes,
        PORTAL_add_next_user_without_pass: { active: noPassActive(row.add_without_pass) },
        DATA_latest: await deps.readings.latest(row.id),
        tier: deviceTier(row, nowMs),
        trialResetActive: row.trial_reset_state === 'active',
        trialResetAvailable: row.trial_reset_state === 'available',
        dataStorageDays: effectiveDataStorageDays(PLANS[plan].dataStorageDays, user.userGroups),
        ...(await staffTimeDifference(row.id, user)),
      },
      myPermission: role,
      requesterUserId: user.id,
    };
  }

  /**
   * A caller with MFA confirms with a code: TOTP users give their current code; an SMS user's
   * first call (no code) texts one and answers 403 MFA_REQUIRED, the next call gives it.
   */
  async function confirmSecondFactor(user: User, code: string | undefined, brand: BrandConfig): Promise<void> {
    const mfaType = user.mfaType;
    if (mfaType === 'NONE') return;
    const mfa = deps.mfa;
    const invalid = () => new AppError(403, 'MFA_INVALID', DEVICE_MESSAGES.mfaInvalid);
    if (!mfa) throw new AppError(403, 'MFA_INVALID', PASSWORDS_MESSAGES.mfaUnavailable);
    switch (mfaType) {
      case 'TOTP':
        if (code === undefined) throw new AppError(403, 'MFA_REQUIRED', DEVICE_MESSAGES.mfaRequired);
        if (!(await mfa.checkTotp(user, code))) throw invalid();
        return;
      case 'SMS':
        if (code === undefined) {
          const sent = await mfa.sendStepUpSms(user, brand);
          throw new AppError(
            403,
            'MFA_REQUIRED',
            sent ? PASSWORDS_MESSAGES.smsSent : PASSWORDS_MESSAGES.smsAlreadySent,
          );
        }
        if (!(await mfa.checkStepUpSms(user, code))) throw invalid();
        return;
      default: {
        const unhandled: never = mfaType;
        throw new Error(`Unhandled MFA type ${String(unhandled)}`);
      }
    }
  }

  return {
    // ---- for other modules (ingest, device calls): the registry ---------------------------

    ...registry,

    // ---- provisioning -------------------------------------------------------------------

    /** Staff only: provisioning_account or senquip_admin. */
    isProvisioningStaff(user: User): boolean {
      return isProvisioning(user.userGroups) || isStaffAdmin(user.userGroups);
    },

    /** Creates a device (answer with its credentials, once) or edits an existing one. */
    async provision(
      id: string,
      body: ProvEditDeviceBody,
      author: string | null,
    ): Promise<{ created: boolean; device: ProvDevice | (ProvDevice & ProvisionedDevice) }> {
      const existing = await repo.findDevice(db, id);
      const family = deviceFamily(body.model);
      const now = clock.now();
      if (existing) {
        const fw = body.fw ?? existing.fw;
        const brand = body.brand ?? existing.brand;
        const config = withDeviceBlock(existing.config, { model: body.model, fw, name: body.name });
        await repo.updateProvisioning(db, id, { model: body.model, family, fw, config, brand });
        await repo.insertProvLog(
          db,
          id,
          `Edited: ${body.model} ${fw}${body.name !== undefined ? ` name ${body.name}` : ''}${brand !== existing.brand ? ` brand ${brand}` : ''}`,
          author,
          now,
        );
        return { created: false, device: withLabelFacts(toProvDevice(await loadDevice(id))) };
      }
      const device = await registry.createDevice(id, body, author);
      if (!device) throw conflict('The device was created at the same time by another request.');
      return { created: true, device: withLabelFacts(device) };
    },

    /** Creates a device with new credentials; null when the id is taken (nothing changes then). */

    async provDevice(id: string): Promise<ProvDevice> {
      return withLabelFacts(toProvDevice(await loadDevice(id)));
    },

    /** Whether a device with the id exists (provisioning asks before it creates one). */
    async provDeviceExists(id: string): Promise<{ deviceid: string; exists: boolean }> {
      return { deviceid: id, exists: (await repo.findDevice(db, id)) !== null };
    },

    async provLog(id: string): Promise<{ deviceid: string; entries: ProvLogEntry[] }> {
      await loadDevice(id);
      const rows = await repo.listProvLog(db, id);
      return {
        deviceid: id,
        entries: rows.map((r) => ({ id: r.id, message: r.message, author: r.author, ts: r.created_at.toISOString() })),
      };
    },

    async addProvLog(
      id: string,
      message: string,
      author: string | null,
    ): Promise<{ deviceid: string; entries: ProvLogEntry[] }> {
      await loadDevice(id);
      await repo.insertProvLog(db, id, message, author, clock.now());
      return this.provLog(id);
    },

    /**
     * Queues the provisioning test (command Prov.RunTest {method, fw}) and logs the request in the
     * provisioning log. A device a customer has added is locked: provLockOverrideCode must then
     * be its setup password (409 otherwise, nothing queued).
     */
    async runProvTest(id: string, body: ProvRunTestBody, user: User): Promise<CommandView> {
      const row = await loadDevice(id);
      const locked = row.added_ts !== null;
      if (locked && !sameDigest(sha256(body.provLockOverrideCode), sha256(row.setup_password)))
        throw conflict(PROV_MESSAGES.locked);
      const command = await deps.delivery.queueCommand(
        id,
        PROV_TEST_COMMAND,
        { method: body.method, fw: body.fw },
        user.id,
      );
      await repo.insertProvLog(db, id, provTestLogMessage(body, command.commandID, locked), user.email, clock.now());
      return command;
    },

    // ---- device users -------------------------------------------------------------------

    /**
     * Adds the device to the caller with the setup password (or without it once, when
     * add-without-password is active). The first user becomes ADMIN and starts the trial.
     * Wrong passwords and unknown ids give the same answer and count against the id.
     */
    async claim(user: User, deviceId: string, body: DeviceUserPostBody): Promise<DeviceUserResult> {
      const windowStart = new Date(clock.now().getTime() - limits.windowMs);
      if ((await repo.countClaimAttempts(db, deviceId, windowStart)) >= limits.claimAttemptsPerDevice)
        throw rateLimited();
      const groupid = body.groupid;
      const outcome = await db.transaction(async (tx) => {
        // The group first: a group where the caller is not ADMIN refuses the call, and nothing changes.
        if (groupid !== undefined) await deps.groups.checkPlacement(tx, user.id, groupid);
        const row = isDeviceRouteId(deviceId) ? await repo.findDevice(tx, deviceId, true) : null;
        if (!row) return null;
        const given = body.setupPassword ?? '';
        const resetActive = row.trial_reset_state === 'active';
        const added = deviceAddOutcome({
          current: await repo.findGrant(tx, deviceId, user.id),
          userCount: (await repo.countGrants(tx, deviceId)).total,
          addWithoutPassword: noPassActive(row.add_without_pass),
          passwordOk: sameDigest(sha256(given), sha256(row.setup_password)),
          addedTs: row.added_ts,
          trialResetActive: resetActive,
        });
        switch (added.kind) {
          case 'refused':
            return null;
          case 'already': {
            // The device's ADMIN adding it again with a group puts it there (ADMIN of the group was checked above).
            const placed = groupid !== undefined && claimPlacesInGroup(added.permission);
            if (placed) await deps.groups.placeClaimed(tx, user, groupid, deviceId);
            return {
              permission: added.permission,
              message: DEVICE_MESSAGES.alreadyUser,
              ...(placed ? { groupid } : {}),
            };
          }
          case 'granted': {
            await repo.upsertGrant(tx, deviceId, user.id, added.permission, clock.now());
            if (added.usesAddWithoutPassword) await repo.setAddWithoutPass(tx, deviceId, 'INACTIVE');
            if (added.startsTrial) await repo.startTrial(tx, deviceId, nowSeconds(), resetActive);
            // Only a claim that makes the caller the device's ADMIN puts it into a group (DESIGN.md section 5).
            const placed = groupid !== undefined && claimPlacesInGroup(added.permission);
            if (placed) await deps.groups.placeClaimed(tx, user, groupid, deviceId);
            return { permission: added.permission, message: DEVICE_MESSAGES.claimed, ...(placed ? { groupid } : {}) };
          }
        }
      });
      if (!outcome) {
        await repo.recordClaimAttempt(db, deviceId, clock.now(), windowStart);
        throw badClaim();
      }
      return { ...outcome, deviceid: deviceId, userid: user.id };
    },

    /** An ADMIN grants a role to an address; an address without an account is invited by mail. */
    async grant(
      user: User,
      deviceId: string,
      email: string,
      permission: DeviceRole,
      ctx: DeviceRequestContext,
    ): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, 'editUsers');
      const targetId = await repo.findUserIdByEmail(db, email);
      if (targetId !== null) {
        const existing = await repo.findGrant(db, deviceId, targetId);
        if (existing !== null) await changeGrant(deviceId, targetId, permission);
        else await repo.upsertGrant(db, deviceId, targetId, permission, clock.now());
        return { message: DEVICE_MESSAGES.userAdded, deviceid: deviceId, userid: targetId, permission, invited: false };
      }
      const row = await loadDevice(deviceId);
      await repo.upsertInvite(db, deviceId, email, permission, user.id, clock.now());
      try {
        await deps.mailer.send(
          accessGrantedMail({
            brand: ctx.brand,
            to: email,
            by: user.email,
            what: 'device',
            name: deviceName(row),
            permission,
            link: `${ctx.linkOrigin}/signup`,
            invited: true,
          }),
        );
      } catch (error) {
        deps.log.error({ err: error }, 'Sending the device invitation failed');
      }
      return { message: DEVICE_MESSAGES.invited, deviceid: deviceId, permission, invited: true };
    },

    /** Applies the pending invitations of a new account (called on sign-up). */
    async applyInvites(userId: string, email: string): Promise<number> {
      return db.transaction(async (tx) => {
        const invites = await repo.takeInvites(tx, email);
        for (const invite of invites)
          await repo.upsertGrant(tx, invite.device_id, userId, invite.permission, clock.now());
        return invites.length;
      });
    },

    async changeUser(
      user: User,
      deviceId: string,
      targetUserId: string,
      permission: DeviceRole,
    ): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, 'editUsers');
      await changeGrant(deviceId, targetUserId, permission);
      return { message: DEVICE_MESSAGES.userUpdated, deviceid: deviceId, userid: targetUserId, permission };
    },

    /** An ADMIN removes a user; anyone with a role may remove themselves. The last ADMIN stays. */
    async removeUser(user: User, deviceId: string, targetUserId: string): Promise<DeviceUserResult> {
      await access.authorize(user.id, deviceId, targetUserId === user.id ? null : 'editUsers');
      await changeGrant(deviceId, targetUserId, null);
      return { message: DEVICE_MESSAGES.userRemoved, deviceid: deviceId, userid: targetUserId };
    },

    /** The device's users and invitations; with `flattenGroups`, the members of its groups too (highest level wins). */
    async permissions(
      user: User,
      deviceId: string,
      flattenGroups = false,
    ): Promise<{ deviceid: string; users: DeviceUserEntry[]; invites: { email: string; permission: DeviceRole }[] }> {
      await access.authorize(user.id, deviceId, 'viewUsers');
      const [grants, invites] = [await repo.listGrants(db, deviceId), await repo.listInvites(db, deviceId)];
      const users: DeviceUserEntry[] = grants.map((g) => ({
        userid: g.user_id,
        targetEmail: g.email,
        permission: g.permission,
      }));
      if (flattenGroups) {
        type Flat = DeviceUserEntry & { groups: string[]; groupAccess: DeviceUserGroupAccess[] };
        const byId = new Map<string, Flat>(
          users.map((u) => [
            u.userid,
            { ...u, direct: true, directPermission: u.permission, groups: [], groupAccess: [] },
          ]),
        );
        for (const m of await deps.groups.membersOfDevice(deviceId)) {
          const entry: Flat = byId.get(m.user_id) ?? {
            userid: m.user_id,
            targetEmail: m.email,
            permission: m.permission,
            direct: false,
            groups: [],
            groupAccess: [],
          };
          entry.permission = effectiveRole([entry.permission, m.permission]) ?? m.permission;
          entry.groups.push(m.groupid);
          entry.groupAccess.push({ groupid: m.groupid, groupName: m.group_name, permission: m.permission });
          byId.set(m.user_id, entry);
        }
        users.splice(0, users.length, ...[...byId.values()].sort((a, b) => a.targetEmail.localeCompare(b.targetEmail)));
      }
      return {
        deviceid: deviceId,
        users,
        invites: invites.map((i) => ({ email: i.email, permission: i.permission })),
      };
    },

    // ---- settings -----------------------------------------------------------------------

    /** A device's PORTAL_displaySettings (per key). */
    async displaySettings(deviceId: string): Promise<Record<string, unknown>> {
      return (await loadDevice(deviceId)).display_settings ?? {};
    },

    async getSettings(user: User, deviceId: string): Promise<DeviceSettingsResponse> {
      const role = await access.authorize(user.id, deviceId, null);
      return settingsRecord(await loadDevice(deviceId), role, user);
    },

    async putSettings(user: User, deviceId: string, body: DeviceSettingsPutBody): Promise<DeviceSettingsResponse> {
      const role = await access.authorize(user.id, deviceId, null);
      const required: Capability[] = [];
      if (body.PORTAL_deviceName !== undefined) required.push('editDeviceSettings');
      if (body.PORTAL_deviceNotes !== undefined) required.push('editDeviceNotes');
      if (body.PORTAL_displaySettings !== undefined) required.push('editDisplaySettings');
      if (required.some((c) => !can(role, c))) throw forbidden();
      if (body.PORTAL_deviceName !== undefined && !isDeviceNameEditable(deviceId)) {
        throw new AppError(400, 'BAD_REQUEST', DEVICE_MESSAGES.nameNotEditable);
      }
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        let displaySettings: Record<string, unknown> | undefined;
        if (body.PORTAL_displaySettings !== undefined) {
          const plan = devicePlan(row, clock.now().getTime());
          const refused = authoredChangeError(row.display_settings ?? {}, body.PORTAL_displaySettings, {
            name: plan,
            dataToPortal: PLANS[plan].dataToPortal,
          });
          if (refused) throw new AppError(400, 'BAD_REQUEST', refused);
          displaySettings = { ...row.display_settings };
          for (const [key, value] of Object.entries(body.PORTAL_displaySettings)) {
            if (value === null) delete displaySettings[key];
            else displaySettings[key] = value;
          }
        }
        await repo.updateSettings(tx, deviceId, {
          ...(body.PORTAL_deviceName !== undefined ? { portalName: body.PORTAL_deviceName } : {}),
          ...(body.PORTAL_deviceNotes !== undefined ? { notes: { ...row.notes, ...body.PORTAL_deviceNotes } } : {}),
          ...(displaySettings !== undefined ? { displaySettings } : {}),
        });
      });
      return settingsRecord(await loadDevice(deviceId), role, user);
    },

    // ---- device notes images (file storage of DLG-21) ------------------------------------------

    /**
     * Stores an asset or brand image (editDeviceNotes; the body is checked by NotesImagePutBodySchema)
     * and sets notes.images[slot] to its address in the same transaction; answers the settings record.
     */
    async putNotesImage(
      user: User,
      deviceId: string,
      slot: NotesImageSlot,
      body: NotesImagePutBody,
    ): Promise<DeviceSettingsResponse> {
      const role = await access.authorize(user.id, deviceId, 'editDeviceNotes');
      const bytes = Buffer.from(body.dataBase64, 'base64');
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        // The schema accepted only png or jpeg whose bytes match.
        const contentType = body.contentType as ImageType;
        const updatedAt = await repo.upsertNotesImage(tx, deviceId, slot, contentType, bytes, clock.now());
        const path = notesImagePath(deviceId, slot, updatedAt.getTime());
        await repo.updateSettings(tx, deviceId, { notes: withNotesImage(row.notes, slot, path) });
      });
      return settingsRecord(await loadDevice(deviceId), role, user);
    },

    /** Removes an asset or brand image (editDeviceNotes; none there is fine) and sets notes.images[slot] to null. */
    async deleteNotesImage(user: User, deviceId: string, slot: NotesImageSlot): Promise<DeviceSettingsResponse> {
      const role = await access.authorize(user.id, deviceId, 'editDeviceNotes');
      await db.transaction(async (tx) => {
        const row = await repo.findDevice(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        await repo.deleteNotesImage(tx, deviceId, slot);
        await repo.updateSettings(tx, deviceId, { notes: withNotesImage(row.notes, slot, null) });
      });
      return settingsRecord(await loadDevice(deviceId), role, user);
    },

    /** The stored image of a slot, to any role on the device; 404 when there is none. */
    async getNotesImage(
      user: User,
      deviceId: string,
      slot: NotesImageSlot,
    ): Promise<{ contentType: ImageType; bytes: Buffer }> {
      await access.authorize(user.id, deviceId, null);
      const image = await repo.findNotesImage(db, deviceId, slot);
      if (!image) throw new AppError(404, 'NOT_FOUND', DEVICE_MESSAGES.notesImageNotFound);
      return { contentType: image.content_type, bytes: image.bytes };
    },

    /** The setup password, to an ADMIN; a caller with TOTP on must give a current code. */
    async setupPassword(
      user: User,
      deviceId: string,
      code: string | undefined,
      brand: BrandConfig,
    ): Promise<{ deviceid: string; setupPassword: string }> {
      await access.authorize(user.id, deviceId, 'adminSettings');
      await confirmSecondFactor(user, code, brand);
      const row = await loadDevice(deviceId);
      return { deviceid: deviceId, setupPassword: row.setup_password };
    },

    // ---- distributor tools --------------------------------------------------------------

    async distributorAction(user: User, deviceId: string, body: DistributorActionBody): Promise<{ message: string }> {
      // A staff admin acts on any device (404 only for no device); anyone else needs a role on it.
      const role = isStaffAdmin(user.userGroups)
        ? await access.roleOf(user.id, deviceId)
        : await access.authorize(user.id, deviceId, null);
      if (role === null) await loadDevice(deviceId);
      if (!canRunDistributorAction(user.userGroups, role)) throw forbidden();
      if (body.action === 'reset-trial') {
        if (!(await repo.activateTrialReset(db, deviceId))) throw conflict(DEVICE_MESSAGES.trialResetUnavailable);
        return { message: DEVICE_MESSAGES.trialResetDone };
      }
      const mode = noPassModeFor(body.params.mode);
      await repo.setAddWithoutPass(db, deviceId, mode);
      return { message: noPassActive(mode) ? DEVICE_MESSAGES.noPassOn : DEVICE_MESSAGES.noPassOff };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
