/**
 * Home's device lookups. The search box (GET /search): the devices the caller holds a role on (as
 * the access gate decides: a direct grant or a group) and the caller's groups, whose id or name
 * contains the text, case-insensitive; at most SEARCH_MAX_RESULTS of each, those starting with it
 * first. The list of devices not in a group (GET /ungrouped-devices): the devices of a direct
 * grant that none of the caller's groups holds, a page at a time, so that every device a user can
 * read is one step from home (docs/decisions.md 'Devices not in a group').
 */
import {
  SEARCH_MAX_RESULTS,
  UNGROUPED_DEVICES_PAGE,
  type SearchResponse,
  type UngroupedDevicesQuery,
  type UngroupedDevicesResponse,
} from '@portal/core';
import type { AccessService } from '../access/access.service';
import type { GroupsService } from '../groups/groups.service';

export interface SearchService {
  /** GET /search: the caller's devices and groups whose id or name contains `q`, those starting with it first. */
  search(userId: string, q: string): Promise<SearchResponse>;
  /** GET /ungrouped-devices: a page of the caller's directly granted devices that none of the caller's groups holds. */
  ungrouped(userId: string, query: UngroupedDevicesQuery): Promise<UngroupedDevicesResponse>;
}

export function createSearchService(deps: {
  access: Pick<AccessService, 'searchDevices' | 'ungroupedDevices'>;
  groups: Pick<GroupsService, 'search'>;
}): SearchService {
  return {
    async search(userId: string, q: string): Promise<SearchResponse> {
      const devices = await deps.access.searchDevices(userId, q, SEARCH_MAX_RESULTS);
      const groups = await deps.groups.search(userId, q, SEARCH_MAX_RESULTS);
      return { devices, groups };
    },

    async ungrouped(userId: string, query: UngroupedDevicesQuery): Promise<UngroupedDevicesResponse> {
      const offset = query.offset ?? 0;
      const page = await deps.access.ungroupedDevices(userId, query.limit ?? UNGROUPED_DEVICES_PAGE, offset);
      return { total: page.total, offset, devices: page.devices };
    },
  };
}
