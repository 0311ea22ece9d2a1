/**
 * Staff administration (senquip_admin; DESIGN.md section 5): distributors and the devices
 * assigned to them (recorded with who and when, and in each device's server log), finding any
 * device or user, a device's dossier (users and where their role comes from, groups, plan,
 * distributor, server log) and a user's, and the statistics of /sqstats. The routes check the
 * staff group; nothing here is reachable otherwise.
 */
import {
  DAY_MS,
  PLAN_NAMES,
  STAFF_LIMITS,
  STAFF_MESSAGES,
  TRIAL_DAYS,
  assignedMessage,
  deviceTrialDays,
  devicePlan,
  effectiveRole,
  isStaffDeviceId,
  money,
  recentMonths,
  unknownDevicesMessage,
  type BillingAdminStatsResponse,
  type DeviceRole,
  type Distributor,
  type DistributorDevicesResponse,
  type DistributorInput,
  type PlanName,
  type StaffDeviceResponse,
  type StaffDeviceUser,
  type StaffSearchResponse,
  type StaffUserResponse,
} from '@portal/core';
import type { Clock } from '../../clock';
import { isUniqueViolation, type Db } from '../../db/db';
import { AppError, conflict } from '../../errors';
import { deviceNotFound } from '../access/access.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import * as repo from './staff.repository';

export interface StaffService {
  /** Every distributor, with its number of devices. */
  listDistributors(): Promise<Distributor[]>;
  /** POST /distributors: id 0 creates one (201); any other id is refused (PUT edits). */
  createDistributor(actor: StaffActor, body: DistributorInput): Promise<Distributor>;
  /** PUT /distributors: edits an existing id; 0 is refused (POST creates), an unknown id is 404. */
  editDistributor(actor: StaffActor, body: DistributorInput): Promise<Distributor>;
  /**
   * PUT /distributor-devices: every listed device goes to the distributor (null: to none), all
   * or nothing; unknown devices are named in a 404. Each device's server log says who did it.
   */
  assignDevices(
    actor: StaffActor,
    body: { distributorId: number | null; deviceList: string[] },
  ): Promise<DistributorDevicesResponse>;
  /** Any device by id prefix or name, any user by address. */
  search(q: string): Promise<StaffSearchResponse>;
  /** A device's dossier: 404 'Device not found' for an id that is no device. */
  device(deviceId: string): Promise<StaffDeviceResponse>;
  /** A user's dossier: their devices (with the highest role of each) and groups; 404 for an unknown id. */
  user(userId: string): Promise<StaffUserResponse>;
  /** GET /billing-admin-stats: the figures of /sqstats, at the server's now. */
  stats(): Promise<BillingAdminStatsResponse>;
}

export interface StaffActor {
  email: string;
}

const epochS = (date: Date | string): number => new Date(date).getTime() / 1000;

function toDistributor(row: repo.DistributorRow): Distributor {
  return {
    id: row.id,
    name: row.name,
    contactEmail: row.contact_email,
    country: row.country,
    notes: row.notes,
    deviceCount: row.device_count,
    createdAt: epochS(row.created_at),
    updatedAt: epochS(row.updated_at),
    updatedBy: row.updated_by,
  };
}

const distributorNotFound = () => new AppError(404, 'NOT_FOUND', STAFF_MESSAGES.distributorNotFound);

/** A user's grants on a device folded into one row per user (the highest role wins). */
function foldGrants(rows: repo.DeviceGrantRow[]): StaffDeviceUser[] {
  const byUser = new Map<string, StaffDeviceUser>();
  for (const row of rows) {
    const user = byUser.get(row.user_id) ?? { userId: row.user_id, email: row.email, role: row.role, sources: [] };
    user.sources.push({
      kind: row.groupid === null ? 'direct' : 'group',
      groupid: row.groupid,
      groupName: row.group_name,
      role: row.role,
    });
    user.role = effectiveRole(user.sources.map((s) => s.role)) ?? row.role;
    byUser.set(row.user_id, user);
  }
  // ADMINs (the owners) first, then by address
  const rank: Record<DeviceRole, number> = { ADMIN: 0, USER: 1, OPERATOR: 2, VIEW: 3 };
  return [...byUser.values()].sort((a, b) => rank[a.role] - rank[b.role] || a.email.localeCompare(b.email));
}

export function createStaffService(deps: {
  db: Db;
  clock: Clock;
  deviceLog: Pick<DeviceLogService, 'list' | 'writeRows'>;
  /** The configured currency (CURRENCY): revenue counts paid invoices in it. */
  currency: string;
}): StaffService {
  const { db, clock, deviceLog } = deps;
  const nowMs = () => clock.now().getTime();

  async function loadDistributor(id: number): Promise<Distributor> {
    const row = await repo.findDistributor(db, id);
    if (!row) throw distributorNotFound();
    return toDistributor(row);
  }

  /** Runs a write that may hit the unique name; a taken name is 409. */
  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(STAFF_MESSAGES.distributorNameTaken);
      throw error;
    }
  }

  return {
    async listDistributors(): Promise<Distributor[]> {
      return (await repo.listDistributors(db)).map(toDistributor);
    },

    async createDistributor(actor: StaffActor, body: DistributorInput): Promise<Distributor> {
      if (body.id !== 0) throw new AppError(400, 'BAD_REQUEST', STAFF_MESSAGES.postNeedsZero);
      const id = await uniqueName(() => repo.insertDistributor(db, body, actor.email, clock.now()));
      return loadDistributor(id);
    },

    async editDistributor(actor: StaffActor, body: DistributorInput): Promise<Distributor> {
      if (body.id === 0) throw new AppError(400, 'BAD_REQUEST', STAFF_MESSAGES.putNeedsId);
      const found = await uniqueName(() => repo.updateDistributor(db, body.id, body, actor.email, clock.now()));
      if (!found) throw distributorNotFound();
      return loadDistributor(body.id);
    },

    async assignDevices(
      actor: StaffActor,
      body: { distributorId: number | null; deviceList: string[] },
    ): Promise<DistributorDevicesResponse> {
      const ids = [...new Set(body.deviceList)];
      const distributor = body.distributorId === null ? null : await loadDistributor(body.distributorId);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const existing = await repo.existingDeviceIds(tx, ids);
        const unknown = ids.filter((id) => !existing.has(id));
        if (unknown.length > 0) throw new AppError(404, 'NOT_FOUND', unknownDevicesMessage(unknown));
        if (distributor) await repo.assignDevices(tx, ids, distributor.id, actor.email, now);
        else await repo.unassignDevices(tx, ids);
        const message = distributor
          ? `Assigned to distributor ${distributor.name} by ${actor.email}`
          : `Distributor assignment removed by ${actor.email}`;
        await deviceLog.writeRows(
          ids.map((id) => ({ device_id: id, ts: now.toISOString(), kind: 'staff', message })),
          tx,
        );
      });
      return {
        message: assignedMessage(ids.length, distributor?.name ?? null),
        distributorId: distributor?.id ?? null,
        deviceList: ids,
      };
    },

    async search(q: string): Promise<StaffSearchResponse> {
      const now = nowMs();
      const [devices, users] = await Promise.all([
        repo.searchDevices(db, q.toUpperCase(), q.toLowerCase(), STAFF_LIMITS.searchResults),
        repo.searchUsers(db, q.toLowerCase(), STAFF_LIMITS.searchResults),
      ]);
      return {
        devices: devices.map((d) => ({
          deviceid: d.id,
          name: d.name,
          model: d.model,
          plan: devicePlan(d, now),
          lastContact: d.last_contact,
          distributor: d.distributor,
        })),
        users: users.map((u) => ({
          userId: u.id,
          email: u.email,
          userGroups: u.user_groups,
          deviceCount: u.device_count,
        })),
      };
    },

    async device(deviceId: string): Promise<StaffDeviceResponse> {
      const row = isStaffDeviceId(deviceId) ? await repo.findDevice(db, deviceId) : null;
      if (!row) throw deviceNotFound();
      const now = nowMs();
      const [grants, groups, distributor, log] = await Promise.all([
        repo.deviceGrants(db, deviceId),
        repo.deviceGroups(db, deviceId),
        repo.deviceDistributor(db, deviceId),
        deviceLog.list(deviceId, STAFF_LIMITS.dossierLogLines),
      ]);
      return {
        device: {
          deviceid: row.id,
          name: row.name,
          model: row.model,
          family: row.family,
          fw: row.fw,
          tier: row.tier,
          plan: devicePlan(row, now),
          trialDaysRemaining: deviceTrialDays(row, now),
          trialResetState: row.trial_reset_state,
          addWithoutPass: row.add_without_pass,
          addedAt: row.added_ts,
          createdAt: epochS(row.created_at),
          lastContact: row.last_contact,
        },
        users: foldGrants(grants),
        groups: groups.map((g) => ({ groupid: g.groupid, groupName: g.group_name, members: g.members })),
        distributor: distributor && {
          id: distributor.id,
          name: distributor.name,
          assignedBy: distributor.assigned_by,
          assignedAt: epochS(distributor.assigned_at),
        },
        serverLog: log.entries,
      };
    },

    async user(userId: string): Promise<StaffUserResponse> {
      const user = await repo.findUser(db, userId);
      if (!user) throw new AppError(404, 'NOT_FOUND', STAFF_MESSAGES.userNotFound);
      const now = nowMs();
      const [grants, groups] = await Promise.all([repo.userDeviceGrants(db, userId), repo.userGroups(db, userId)]);
      const devices = new Map<string, StaffUserResponse['devices'][number]>();
      for (const g of grants) {
        const seen = devices.get(g.id);
        const role = effectiveRole([seen?.role, g.role]) ?? g.role;
        devices.set(g.id, {
          deviceid: g.id,
          name: g.name,
          model: g.model,
          plan: devicePlan(g, now),
          role,
          lastContact: g.last_contact,
        });
      }
      return {
        user: {
          userId: user.id,
          email: user.email,
          emailVerified: user.email_verified,
          userGroups: user.user_groups,
          mfaType: user.mfa_type,
          createdAt: epochS(user.created_at),
          brandImageUrl: user.brand_image_url,
        },
        devices: [...devices.values()],
        groups: groups.map((g) => ({
          groupid: g.groupid,
          groupName: g.group_name,
          permission: g.permission,
          devices: g.devices,
        })),
      };
    },

    async stats(): Promise<BillingAdminStatsResponse> {
      const now = nowMs();
      const nowS = Math.floor(now / 1000);
      const months = recentMonths(now, STAFF_LIMITS.statsMonths);
      const since = new Date(`${months[0]}-01T00:00:00Z`);
      const hourStartS = nowS - 3600;
      const [byTier, byModel, active, byDistributor, subs, revenue, perMinute] = await Promise.all([
        repo.devicesByTierAndTrial(db, nowS, TRIAL_DAYS * (DAY_MS / 1000)),
        repo.devicesByModel(db),
        repo.activeDevices(db, nowS - DAY_MS / 1000),
        repo.devicesByDistributor(db),
        repo.subscriptionsByMonth(db, since),
        repo.revenueByMonth(db, since, deps.currency),
        repo.recordsPerMinute(db, hourStartS, nowS),
      ]);
      // The plan of each (tier, trial) bucket by core's one rule, with a representative added_ts.
      const devicesByPlan = Object.fromEntries(PLAN_NAMES.map((p) => [p, 0])) as Record<PlanName, number>;
      const representative: Record<repo.TrialWindow, number | null> = { none: null, running: nowS, over: 0 };
      for (const row of byTier) {
        devicesByPlan[devicePlan({ tier: row.tier, added_ts: representative[row.trial] }, now)] += row.count;
      }
      const minutes = Array.from({ length: 60 }, () => 0);
      for (const row of perMinute) if (row.minute >= 0 && row.minute < 60) minutes[row.minute] = row.count;
      const recordsLastHour = minutes.reduce((a, b) => a + b, 0);
      const subsByMonth = new Map(subs.map((r) => [r.month, r.count]));
      const revenueByMonth = new Map(revenue.map((r) => [r.month, r.cents]));
      return {
        generatedAt: nowS,
        currency: deps.currency,
        totalDevices: byModel.reduce((sum, r) => sum + r.count, 0),
        activeLastDay: active,
        devicesByPlan,
        devicesByModel: byModel,
        devicesByDistributor: byDistributor.map((r) => ({
          distributorId: r.distributor_id,
          name: r.name,
          count: r.count,
        })),
        months: months.map((month) => ({
          month,
          subscriptions: subsByMonth.get(month) ?? 0,
          revenue: money((revenueByMonth.get(month) ?? 0) / 100),
        })),
        ingest: { recordsLastHour, perMinute: money(recordsLastHour / 60), minutes },
      };
    },
  };
}
