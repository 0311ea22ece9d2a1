/**
 * Home's search box (GET /search): the devices the caller holds a role on (as the access gate
 * decides: a direct grant or a group) and the caller's groups, whose id or name contains the
 * text, case-insensitive; at most SEARCH_MAX_RESULTS of each, those starting with it first.
 */
import { SEARCH_MAX_RESULTS, type SearchResponse } from '@portal/core';
import type { AccessService } from '../access/access.service';
import type { GroupsService } from '../groups/groups.service';

export function createSearchService(deps: {
  access: Pick<AccessService, 'searchDevices'>;
  groups: Pick<GroupsService, 'search'>;
}) {
  return {
    async search(userId: string, q: string): Promise<SearchResponse> {
      const devices = await deps.access.searchDevices(userId, q, SEARCH_MAX_RESULTS);
      const groups = await deps.groups.search(userId, q, SEARCH_MAX_RESULTS);
      return { devices, groups };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
