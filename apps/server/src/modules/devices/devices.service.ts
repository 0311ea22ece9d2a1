/**
 * Devices: the device calls' services, one per job, wired together. Device keys and the devices
 * table as other modules read it are the registry's (devices.registry.ts); provisioning is
 * modules/provisioning's. Access to every device call is decided by the one gate
 * (modules/access): a stranger gets 404 'Device not found', the same answer as for a device that
 * does not exist; a role without the capability gets 403.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { Mailer } from '../mail/mail.service';
import type { AccessService } from '../access/access.service';
import type { GroupsService } from '../groups/groups.service';
import type { ImagesService } from '../images/images.service';
import type { TelemetryService } from '../telemetry/telemetry.service';
import { createDeviceClaimsService, type DeviceClaimsService, type DeviceLimits } from './device-claims.service';
import { createDeviceNotesImagesService, type DeviceNotesImagesService } from './device-notes-images.service';
import { createDeviceSettingsService, type DeviceSettingsService } from './device-settings.service';
import { createDeviceUsersService, type DeviceUsersService } from './device-users.service';
import { createDistributorActionsService, type DistributorActionsService } from './distributor-actions.service';
import { createSetupPasswordsService, type MfaStepUp, type SetupPasswordsService } from './setup-passwords.service';

/** The device calls, by job. */
export interface DevicesService {
  /** Claiming a device with its setup password (or without it once, in no-pass mode). */
  claims: DeviceClaimsService;
  /** Device users and invitations. */
  users: DeviceUsersService;
  /** The settings record. */
  settings: DeviceSettingsService;
  /** The asset and brand image of the device notes. */
  notesImages: DeviceNotesImagesService;
  /** The setup password, shown to an ADMIN after the second factor. */
  passwords: SetupPasswordsService;
  /** The distributor tools (trial reset, no-pass mode). */
  distributor: DistributorActionsService;
}

export interface DevicesDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  limits?: DeviceLimits;
  /** The caller's second factor (auth service), asked before a setup password is shown; absent: refused for MFA users. */
  mfa?: MfaStepUp;
  /** The one access gate. */
  access: AccessService;
  /** Puts a device claimed with {setupPassword, groupid} into the group (the groups module). */
  groups: Pick<GroupsService, 'checkPlacement' | 'placeClaimed' | 'membersOfDevice'>;
  /** The image store that keeps the notes images. */
  images: ImagesService;
  /** Readings of the device (telemetry): DATA_latest and the staff clock difference of the settings record. */
  readings: Pick<TelemetryService, 'latest' | 'clockDifference'>;
}

export function createDevicesService(deps: DevicesDeps): DevicesService {
  const { db, clock, access } = deps;
  const settings = createDeviceSettingsService({ db, clock, access, readings: deps.readings });
  return {
    claims: createDeviceClaimsService({ db, clock, groups: deps.groups, limits: deps.limits }),
    users: createDeviceUsersService({ db, clock, access, mailer: deps.mailer, log: deps.log, groups: deps.groups }),
    settings,
    notesImages: createDeviceNotesImagesService({ db, access, images: deps.images, settings }),
    passwords: createSetupPasswordsService({ db, access, mfa: deps.mfa }),
    distributor: createDistributorActionsService({ db, access }),
  };
}
