/**
 * The messages of screens and cards (spec 1 section 8, spec 2 section 8) that the start of the web
 * app never shows: kept apart from messages.ts, whose texts the entry chunk carries, so they load
 * with the pages that show them.
 */
import { ERROR_LOADING_DATA } from './messages';

export const VIEW_SAVE_ERROR = 'An error occurred';
export const VIEW_NOT_FOUND = 'View not found';
export const WIDGET_NOT_FOUND = 'Widget not found';
export const MAP_LOAD_ERROR = 'Map Load Error';
export const CONFIG_LOAD_ERROR = 'Failed to load device configuration.';
export const PORTAL_SETTINGS_LOAD_ERROR = 'Failed to load Portal settings for this device.';
export const DEVICE_SETTINGS_LOAD_ERROR = 'Error loading device settings';
export const CUSTOM_SETTING_QUEUED =
  'The change has been queued, and will be pushed next time the device makes contact.';
export const TRIGGER_SUCCESS_TITLE = 'Successfully Queued';
export const TRIGGER_SUCCESS_TEXT = 'The command runs at once if the device is online, otherwise at its next contact.';
export const GAUGE_RANGE_ERROR = 'Gauge Error: Invalid min/max range';
export const NO_ASSETS_MATCH = 'No assets match filters.';
/** An empty group's table and map (nothing to filter yet). */
export const NO_DEVICES_IN_GROUP = 'No devices in this group';
export const NO_CHART_DATA = 'No Data';
export const NO_RECENT_CONTACT = 'No Recent Contact';
export const LATEST_DATA = 'Latest Data';
export const HISTORICAL_DATA = 'Historical Data';
export const DISABLE_CLUSTERING = 'Disable Clustering';
export const ENABLE_CLUSTERING = 'Enable Clustering';

/** Texts shown inside a card in place of its content. */
export const CARD_MESSAGES = {
  noData: 'No Data Available',
  noEvents: 'No Events',
  firmwareUpdateRequired: 'Firmware Update Required',
  errorLoadingData: ERROR_LOADING_DATA,
  base64Failed: 'Failed to display as base64',
  hexFailed: 'Failed to display as hex',
  processFailed: 'Failed to process data',
} as const;

/** Placeholders for missing values. */
export const MISSING_VALUE = { headline: '---', text: '???', notANumber: 'NaN' } as const;

/** 'Maximum number of {type}s reached [{max}]'. */
export function widgetLimitMessage(type: string, max: number): string {
  return `Maximum number of ${type}s reached [${max}]`;
}

/** 'Last known value from {time}'. */
export function lastKnownValueTooltip(time: string): string {
  return `Last known value from ${time}`;
}

/** 'Increased from {previous}' or 'Decreased from {previous}'. */
export function trendTooltip(direction: 'up' | 'down', previous: string): string {
  return `${direction === 'up' ? 'Increased' : 'Decreased'} from ${previous}`;
}
