/**
 * A config file chosen for import (SUB-28): read, checked by the import contract, and compared
 * with the device's config section by section, so the page shows what will change before it
 * sends anything. A malformed file gets a message and nothing is sent.
 */
import { configImportChange, DeviceConfigDocumentSchema, type DeviceConfigDocument } from '../contracts/device-calls';

export const CONFIG_FILE_MESSAGES = {
  notJson: 'The file is not a JSON file.',
  notConfig: 'The file is not a config export: it needs {"config": {"settings": {...}}}.',
  invalid: (path: string, message: string) => `The file's config is not valid: ${path ? `${path}: ` : ''}${message}`,
  nothingToImport: 'The file has nothing to import besides the device identity (id, model, fw).',
} as const;

/** One value the import changes: its path below settings, what the device has and what it gets. */
export interface ConfigImportChangeItem {
  path: string;
  from: unknown;
  to: unknown;
}

/** A section of settings the file carries, and the values in it that differ from the device's config. */
export interface ConfigImportSection {
  section: string;
  changes: ConfigImportChangeItem[];
}

export type ConfigFileReading =
  | {
      ok: true;
      /** The document as POST /device/{id}/import takes it ({config: document}). */
      document: DeviceConfigDocument;
      sections: ConfigImportSection[];
      ignoredFields: string[];
    }
  | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return Object.is(a, b);
}

/** The leaves of `incoming` (objects merge key by key on import, arrays and values replace) that differ from `current`. */
function differences(path: string, current: unknown, incoming: unknown): ConfigImportChangeItem[] {
  if (isRecord(incoming) && isRecord(current)) {
    return Object.keys(incoming).flatMap((key) =>
      differences(path ? `${path}.${key}` : key, current[key], incoming[key]),
    );
  }
  if (isRecord(incoming)) return differences(path, {}, incoming);
  return sameValue(current, incoming) ? [] : [{ path, from: current, to: incoming }];
}

/**
 * Per section of the change (identity fields removed), the values that differ from the device's
 * config `current` (a config document, {settings: {...}}); a section with none is unchanged.
 */
export function configImportSections(
  current: Record<string, unknown>,
  change: { settings: Record<string, unknown> },
): ConfigImportSection[] {
  const settings = isRecord(current.settings) ? current.settings : {};
  return Object.keys(change.settings).map((section) => ({
    section,
    changes: differences(section, settings[section], change.settings[section]),
  }));
}

/**
 * Reads a config file's text (an export: {config: {settings}}; a bare {settings} document is
 * taken too) against the device's config `current`: the document to send and its preview, or
 * the message saying why the file cannot be imported.
 */
export function readConfigFile(text: string, current: Record<string, unknown>): ConfigFileReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: CONFIG_FILE_MESSAGES.notJson };
  }
  const candidate = isRecord(parsed) && 'config' in parsed ? parsed.config : parsed;
  if (!isRecord(candidate) || !('settings' in candidate)) return { ok: false, message: CONFIG_FILE_MESSAGES.notConfig };
  const result = DeviceConfigDocumentSchema.safeParse(candidate);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = (issue?.path ?? []).map(String).join('.');
    return { ok: false, message: CONFIG_FILE_MESSAGES.invalid(path, issue?.message ?? 'invalid') };
  }
  const { change, ignoredFields } = configImportChange(result.data);
  if (!change) return { ok: false, message: CONFIG_FILE_MESSAGES.nothingToImport };
  return { ok: true, document: result.data, sections: configImportSections(current, change), ignoredFields };
}
