/**
 * The device script as the Scripting page handles it (spec 2 sections 6-9; ledger SUB-20 to
 * SUB-24; DESIGN.md section 5): the server keeps it as base64 of its UTF-8 text, the page decodes
 * it for the editor (null on a decoding failure, SUB-21) and encodes it for saving (SUB-22), with
 * the size limit counted in bytes as the server counts them; scripting needs firmware SFW003 or
 * later (by document number).
 */
import { DEVICE_CONFIG_MESSAGES, SCRIPT_MAX_BYTES } from '../contracts/device-config';
import { firmwareParts } from './device-config-fields';
import { decodeBase64Text, encodeBase64Text, utf8Bytes, wellFormedText } from './text-codecs';

/** Scripting needs a firmware of this document number or later (SFW003). */
export const SCRIPTING_MIN_FIRMWARE_DOC = 3;

/** The script's text of a base64 answer; null when it is not base64 or not UTF-8 text (SUB-21). */
export function decodeScript(base64: unknown): string | null {
  return decodeBase64Text(base64);
}

/** Standard base64 of the script's UTF-8 text (scriptFileBase64, SUB-22); decodeScript gives the text back. */
export function encodeScript(text: string): string {
  return encodeBase64Text(wellFormedText(text));
}

/** Bytes of the script's UTF-8 text: what the server's limit (SCRIPT_MAX_BYTES) counts. */
export function scriptByteLength(text: string): number {
  return utf8Bytes(wellFormedText(text)).length;
}

/** The server's message for a script over SCRIPT_MAX_BYTES, else null: checked before saving. */
export function scriptSizeError(text: string): string | null {
  return scriptByteLength(text) > SCRIPT_MAX_BYTES ? DEVICE_CONFIG_MESSAGES.scriptTooLarge : null;
}

/** True when the firmware (SFW{doc}-x.y.z) runs scripts: document number 003 or later; false when it is not a firmware string. */
export function scriptingSupported(fw: unknown): boolean {
  const parts = firmwareParts(fw);
  return parts !== null && Number(parts.doc) >= SCRIPTING_MIN_FIRMWARE_DOC;
}

/** The refusal of a script saved for a device whose firmware cannot run it. */
export function scriptFirmwareMessage(fw: string): string {
  return `Firmware Update Required: scripting needs firmware SFW003 or later, and this device runs ${fw}.`;
}

/** The Scripting editor's themes; kept in local storage (STORAGE_KEYS.scriptTheme, SUB-24). */
export const SCRIPT_THEMES = ['light', 'dark'] as const;
export type ScriptTheme = (typeof SCRIPT_THEMES)[number];

/** The stored theme, or 'light' when nothing (or something else) is stored. */
export function parseScriptTheme(stored: unknown): ScriptTheme {
  return stored === 'dark' ? 'dark' : 'light';
}
