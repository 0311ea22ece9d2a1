/**
 * Device config: the config document (applied and pending), custom script settings, the device
 * script with its edit lock, and firmware and file pushes (queued as commands through delivery;
 * ADMIN only, a firmware from the configured list).
 *
 * A change is kept as a pending config (a partial document merged into earlier pending changes)
 * with a version that every change bumps; the delivery module sends it with that version at the
 * device's next contact (again after the resend interval while unacknowledged), keeps it pending
 * until the device acknowledges the version (`{config: version}`), then merges the version sent
 * into the applied config and logs 'config applied'. The script works the same way
 * (`{script: version}`, 'script applied').
 * Files are fetched by the device from GET /api/ingest/{id}/file/{fileId}.
 */
import { createHash } from 'node:crypto';
import {
  DEVICE_CONFIG_MESSAGES,
  DEVICE_FILE_MAX_BYTES,
  FIRMWARE_MESSAGES,
  SCRIPT_MAX_BYTES,
  base64DecodedSize,
  canEditCustomSetting,
  customSettingError,
  editsCustomSettingsPerKey,
  normaliseCustomValues,
  scriptFirmwareMessage,
  scriptLockedMessage,
  scriptingSupported,
  CONFIG_IMPORT_MESSAGES,
  configImportChange,
  type CustomSettingsBody,
  type DeviceConfigImportResult,
  type DeviceConfigDocument,
  type DeviceConfigPutBody,
  type DeviceConfigResponse,
  type DeviceFileCommandArgs,
  type DeviceFilePutBody,
  type FirmwareListResponse,
  type FirmwarePostBody,
  type ScriptLock,
  type ScriptLockResponse,
  type ScriptResponse,
  type CommandView,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict, forbidden } from '../../errors';
import type { User } from '../auth/auth.service';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { DeliveryService } from '../delivery/delivery.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceSettingsService } from '../devices/device-settings.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import { asRecord } from '../devices/devices.summary';
import * as repo from './device-config.repository';

/** What device config offers: the config document, custom settings, the script and its lock, firmware and file pushes. */
export interface DeviceConfigService {
  /** The applied and pending config, and the serial capture texts decoded; any role. */
  getConfig(user: User, deviceId: string): Promise<DeviceConfigResponse>;
  /** Queues a config change (merged into earlier pending changes); editDeviceSettings. */
  putConfig(user: User, deviceId: string, body: DeviceConfigPutBody): Promise<DeviceConfigResponse>;
  /**
   * POST /device/{id}/import with `{config}` (telemetry's import route hands it over): a config
   * document queued as the pending config exactly like PUT /config (editDeviceSettings), the
   * device's identity fields ignored.
   */
  importConfig(user: User, deviceId: string, config: DeviceConfigDocument): Promise<DeviceConfigImportResult>;
  /** Queues custom script settings; customSettings, and key by key (operatorEditable) for OPERATOR. */
  putCustomSettings(user: User, deviceId: string, body: CustomSettingsBody): Promise<{ message: string }>;
  /** The script (pending, else applied) and its edit lock; scripting. */
  getScript(user: User, deviceId: string): Promise<ScriptResponse>;
  /** Saves the script as pending (SFW003 or later, unless another user holds the lock); scripting. */
  putScript(user: User, deviceId: string, scriptFileBase64: string): Promise<ScriptResponse>;
  /** Takes or releases the script's edit lock (409 when another user holds it); scripting. */
  setScriptLock(user: User, deviceId: string, lock: boolean): Promise<ScriptLockResponse>;
  /** Releases anyone's script lock; adminSettings. */
  forceScriptUnlock(user: User, deviceId: string): Promise<ScriptLockResponse>;
  /** The known firmware, for the firmware update's choice (any signed-in user). */
  firmwareList(): FirmwareListResponse;
  /** Queues a firmware update to one of the known firmware; adminSettings. */
  pushFirmware(user: User, deviceId: string, body: FirmwarePostBody): Promise<CommandView>;
  /** ADMIN (admin settings, spec 2 section 6): a file for the device, at most 8 MB decoded. */
  pushFile(user: User, deviceId: string, body: DeviceFilePutBody): Promise<CommandView>;
}

export interface DeviceConfigDeps {
  db: Db;
  clock: Clock;
  access: AccessService;
  registry: DeviceRegistry;
  devices: Pick<DeviceSettingsService, 'displaySettings'>;
  delivery: DeliveryService;
  deviceLog: DeviceLogService;
  /** The known firmware (FIRMWARE_VERSIONS): a firmware update names one of them. */
  firmwareVersions: readonly string[];
}

type Doc = Record<string, unknown>;
type CaptureText = { start: string | null; end: string | null; request: string | null };

const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

/** Base64 text decoded as UTF-8 for display; null when it is not base64 of UTF-8 text. */
export function decodeBase64Text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
  } catch {
    return null;
  }
}

function captureText(config: Doc): CaptureText {
  const capture = asRecord(asRecord(asRecord(config.settings).serial1).capture);
  return {
    start: decodeBase64Text(capture.start),
    end: decodeBase64Text(capture.end),
    request: decodeBase64Text(capture.request),
  };
}

function lockView(row: repo.ScriptRow | null): ScriptLock | null {
  if (!row?.lock_user_id || !row.locked_at) return null;
  return { userid: row.lock_user_id, email: row.lock_email ?? '', since: row.locked_at.toISOString() };
}

export function createDeviceConfigService(deps: DeviceConfigDeps): DeviceConfigService {
  const { db, clock, access, registry, devices, delivery, deviceLog, firmwareVersions } = deps;

  async function configView(deviceId: string): Promise<DeviceConfigResponse> {
    const device = await registry.getDevice(deviceId);
    if (!device) throw deviceNotFound();
    const pending = device.pending_config;
    const state = pending ? await delivery.configState(deviceId) : { version: null, sentAt: null, since: null };
    return {
      deviceid: deviceId,
      config: device.config,
      pending,
      pendingSince: state.since ? state.since.toISOString() : null,
      pendingVersion: state.version,
      pendingSentAt: state.sentAt ? state.sentAt.toISOString() : null,
      serialCaptureText: {
        applied: captureText(device.config),
        pending: pending && asRecord(asRecord(pending.settings).serial1).capture ? captureText(pending) : null,
      },
    };
  }

  async function queueChange(deviceId: string, change: Doc): Promise<void> {
    await delivery.queueConfig(deviceId, change);
    delivery.deliverSoon(deviceId);
  }

  async function scriptView(deviceId: string): Promise<ScriptResponse> {
    const row = await repo.findScript(db, deviceId);
    return {
      deviceid: deviceId,
      data: row?.pending_script ?? row?.script ?? '',
      pending: row?.pending_script != null,
      lock: lockView(row),
    };
  }

  async function lockedBy(deviceId: string): Promise<AppError> {
    const lock = lockView(await repo.findScript(db, deviceId));
    return conflict(scriptLockedMessage(lock?.email ?? 'another user', lock?.since ?? clock.now().toISOString()));
  }

  return {
    // ---- config document ----------------------------------------------------------------

    async getConfig(user: User, deviceId: string): Promise<DeviceConfigResponse> {
      await access.authorize(user.id, deviceId, null);
      return configView(deviceId);
    },

    async putConfig(user: User, deviceId: string, body: DeviceConfigPutBody): Promise<DeviceConfigResponse> {
      await access.authorize(user.id, deviceId, 'editDeviceSettings');
      await queueChange(deviceId, body.config);
      await deviceLog.write(
        deviceId,
        'config',
        `Config change queued by ${user.email}: ${Object.keys(body.config.settings).join(', ')}`,
      );
      return configView(deviceId);
    },

    /**
     * POST /device/{id}/import with `{config}` (telemetry's import route hands it over): a config
     * document (as GET /config or export?format=config give it) queued as the pending config
     * exactly like PUT /config (editDeviceSettings), the device's identity fields ignored.
     */
    async importConfig(user: User, deviceId: string, config: DeviceConfigDocument): Promise<DeviceConfigImportResult> {
      await access.authorize(user.id, deviceId, 'editDeviceSettings');
      const { change, ignoredFields } = configImportChange(config);
      if (!change) throw badRequest(CONFIG_IMPORT_MESSAGES.nothingToImport);
      await queueChange(deviceId, change);
      await deviceLog.write(
        deviceId,
        'config',
        `Config imported by ${user.email}: ${Object.keys(change.settings).join(', ')}`,
      );
      return { ...(await configView(deviceId)), importedConfig: change, ignoredFields };
    },

    async putCustomSettings(user: User, deviceId: string, body: CustomSettingsBody): Promise<{ message: string }> {
      const role = await access.authorize(user.id, deviceId, 'customSettings');
      if (editsCustomSettingsPerKey(role)) {
        const display = await devices.displaySettings(deviceId);
        const refused = Object.keys(body.values).filter((name) => !canEditCustomSetting(role, display[name]));
        if (refused.length > 0) throw forbidden(DEVICE_CONFIG_MESSAGES.notOperatorEditable(refused));
      }
      for (const [name, value] of Object.entries(body.values)) {
        const error = customSettingError(name, value);
        if (error) throw badRequest(error);
      }
      await queueChange(deviceId, { settings: { script: normaliseCustomValues(body.values) } });
      await deviceLog.write(
        deviceId,
        'config',
        `Custom settings queued by ${user.email}: ${Object.keys(body.values).join(', ')}`,
      );
      return { message: DEVICE_CONFIG_MESSAGES.queued };
    },

    // ---- script -------------------------------------------------------------------------

    async getScript(user: User, deviceId: string): Promise<ScriptResponse> {
      await access.authorize(user.id, deviceId, 'scripting');
      return scriptView(deviceId);
    },

    async putScript(user: User, deviceId: string, scriptFileBase64: string): Promise<ScriptResponse> {
      await access.authorize(user.id, deviceId, 'scripting');
      const size = base64DecodedSize(scriptFileBase64);
      if (size > SCRIPT_MAX_BYTES) throw badRequest(DEVICE_CONFIG_MESSAGES.scriptTooLarge);
      // DESIGN.md section 5: scripting needs SFW003 or later; an older device could not run what it is sent.
      const device = await registry.getDevice(deviceId);
      if (!device) throw deviceNotFound();
      if (!scriptingSupported(device.fw)) throw conflict(scriptFirmwareMessage(device.fw));
      if (!(await delivery.queueScript(deviceId, user.id, scriptFileBase64))) throw await lockedBy(deviceId);
      await deviceLog.write(
        deviceId,
        'config',
        `Script (${size} bytes) saved by ${user.email}; delivered at the next contact`,
      );
      delivery.deliverSoon(deviceId);
      return scriptView(deviceId);
    },

    async setScriptLock(user: User, deviceId: string, lock: boolean): Promise<ScriptLockResponse> {
      await access.authorize(user.id, deviceId, 'scripting');
      if (lock) {
        if (!(await repo.lockScript(db, deviceId, user.id, clock.now()))) throw await lockedBy(deviceId);
      } else if (!(await db.transaction((tx) => repo.unlockScript(tx, deviceId, user.id)))) {
        throw await lockedBy(deviceId);
      }
      return { deviceid: deviceId, lock: (await scriptView(deviceId)).lock };
    },

    async forceScriptUnlock(user: User, deviceId: string): Promise<ScriptLockResponse> {
      await access.authorize(user.id, deviceId, 'adminSettings');
      await db.transaction((tx) => repo.unlockScript(tx, deviceId, null));
      await deviceLog.write(deviceId, 'config', `Script lock released by ${user.email}`);
      return { deviceid: deviceId, lock: null };
    },

    // ---- firmware and files -------------------------------------------------------------

    firmwareList(): FirmwareListResponse {
      return { firmware: [...firmwareVersions] };
    },

    async pushFirmware(user: User, deviceId: string, body: FirmwarePostBody): Promise<CommandView> {
      await access.authorize(user.id, deviceId, 'adminSettings');
      if (!firmwareVersions.includes(body.firmwareName)) throw badRequest(FIRMWARE_MESSAGES.unknown(body.firmwareName));
      return delivery.queueCommand(deviceId, 'Admin.Firmware', { firmwareName: body.firmwareName }, user.id);
    },

    async pushFile(user: User, deviceId: string, body: DeviceFilePutBody): Promise<CommandView> {
      await access.authorize(user.id, deviceId, 'adminSettings');
      const size = base64DecodedSize(body.fileDataBase64);
      // A body beyond any valid file is Fastify's 413; a file a little over the limit is bad input.
      if (size > DEVICE_FILE_MAX_BYTES) throw badRequest(DEVICE_CONFIG_MESSAGES.fileTooLarge);
      const sha256 = createHash('sha256').update(Buffer.from(body.fileDataBase64, 'base64')).digest('hex');
      const fileId = await repo.upsertFile(db, {
        deviceId,
        fileName: body.fileName,
        size,
        sha256,
        data: body.fileDataBase64,
        createdAt: clock.now(),
        createdBy: user.id,
      });
      const args: DeviceFileCommandArgs = {
        fileName: body.fileName,
        size,
        sha256,
        fileId,
        path: `/api/ingest/${encodeURIComponent(deviceId)}/file/${fileId}`,
      };
      return delivery.queueCommand(deviceId, 'Admin.File', args, user.id);
    },
  };
}
