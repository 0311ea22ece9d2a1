/**
 * The group data call (DESIGN.md section 5, spec 1 section 7 "load a group's data"):
 * GET /group/{groupid}/data answers, for every device of the group, its summary (as GET
 * /group/{groupid}'s deviceSummaries), last contact, the latest values of the keys asked for,
 * event counts by level, the newest event messages in the range, position and marker severity,
 * all read from what ingest keeps ready (modules/telemetry group-data.repository.ts).
 *
 * Any member level reads it; anyone else gets the group calls' 404. For 10,000 devices the answer
 * is several megabytes: it is put together here from the devices' parts as the database wrote
 * them (JSON text, kept as bytes between calls), not built as objects and encoded again through
 * the schema.
 */
import { GROUP_DATA_DEFAULT_DAYS, GROUP_DATA_MAX_DAYS, type GroupDataQuery } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { User } from '../auth/auth.service';
import type { TelemetryService } from '../telemetry/telemetry.service';
import type { AccessService } from '../access/access.service';
import * as repo from './groups.repository';

/** What the group data call offers. */
export interface GroupDataService {
  /** The group data as JSON text in UTF-8 (core GroupDataResponseSchema); 404 for a non-member, 400 for a bad range. */
  data(user: User, groupid: string, query: GroupDataQuery): Promise<Buffer>;
}

const HOUR = 3600;
const DAY = 86_400;

/** The bytes between the devices' parts in the answer. */
const OPEN = Buffer.from('{');
const BETWEEN = Buffer.from('},{');
const CLOSE_END = Buffer.from('}]}');
const END = Buffer.from(']}');

const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);

export interface GroupDataDeps {
  db: Db;
  access: Pick<AccessService, 'authorizeGroup'>;
  clock: Clock;
  telemetry: Pick<TelemetryService, 'groupDataParts'>;
}

/** The range a call reads: `to` defaults to now, `from` to GROUP_DATA_DEFAULT_DAYS before `to`. */
export function groupDataRange(
  query: Pick<GroupDataQuery, 'from' | 'to'>,
  nowS: number,
): { fromS: number; toS: number } {
  const toS = query.to ?? nowS;
  const fromS = query.from ?? toS - GROUP_DATA_DEFAULT_DAYS * DAY;
  if (fromS > toS) throw badRequest('from must not be after to');
  if (toS - fromS > GROUP_DATA_MAX_DAYS * DAY) throw badRequest(`The range covers at most ${GROUP_DATA_MAX_DAYS} days`);
  return { fromS, toS };
}

export function createGroupDataService(deps: GroupDataDeps): GroupDataService {
  const { db, clock, telemetry, access } = deps;

  return {
    async data(user: User, groupid: string, query: GroupDataQuery): Promise<Buffer> {
      await access.authorizeGroup(user.id, groupid, null);
      const { fromS, toS } = groupDataRange(query, Math.floor(clock.now().getTime() / 1000));
      const ids = await repo.groupDeviceIds(db, groupid);
      const parts = await telemetry.groupDataParts(ids, {
        fromS,
        toS,
        keys: query.keys,
        stats: query.stats,
        ...(query.messages === undefined ? {} : { messages: query.messages }),
      });
      const from = Math.floor(fromS / HOUR) * HOUR;
      const to = Math.floor(toS / HOUR) * HOUR + HOUR;
      const pieces: Buffer[] = [
        Buffer.from(`{"groupid":${JSON.stringify(groupid)},"from":${from},"to":${to},"devices":[`),
      ];
      parts.forEach((part, i) => pieces.push(i === 0 ? OPEN : BETWEEN, part));
      pieces.push(parts.length === 0 ? END : CLOSE_END);
      return Buffer.concat(pieces);
    },
  };
}
