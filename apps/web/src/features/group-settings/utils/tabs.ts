import { groupCan } from '@portal/core';

/** The tabs of /group/{groupid}/settings/{tabindex}, in order: the tab index in the URL is the position here. */
export const GROUP_SETTINGS_TABS = ['name', 'members', 'devices', 'serverlog'] as const;
export type GroupSettingsTab = (typeof GROUP_SETTINGS_TABS)[number];

export const TAB_LABELS = {
  name: 'Name',
  members: 'Members',
  devices: 'Devices',
  serverlog: 'Server Log',
} as const satisfies Record<GroupSettingsTab, string>;

/** Shorter labels where four tabs must fit a phone's width. */
export const SHORT_TAB_LABELS: Partial<Record<GroupSettingsTab, string>> = { serverlog: 'Log' };

/** True when the group level sees the tab: the server log only for ADMIN (DESIGN.md section 5). */
export function tabVisible(tab: GroupSettingsTab, level: unknown): boolean {
  return tab === 'serverlog' ? groupCan(level, 'serverLog') : true;
}

/**
 * The tab index of the URL: a whole number naming a tab; anything else (absent, text, out of
 * range) is null, and the page opens the first tab.
 */
export function parseTabIndex(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,2}$/.test(value)) return null;
  const index = Number(value);
  return index < GROUP_SETTINGS_TABS.length ? index : null;
}
