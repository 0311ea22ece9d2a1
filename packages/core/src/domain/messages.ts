/** User-visible messages of the error catalogues (spec 1 section 8, spec 2 section 8) and the error readers. */

/** How long a toast stays, in ms. */
export const TOAST_LIFE_MS = 7000;
/** Characters of the text that make a toast's id, so identical errors replace each other. */
export const TOAST_ID_LENGTH = 15;
/** Delay before an MFA failure is shown (and the code cleared). */
export const MFA_ERROR_DELAY_MS = 2000;
/** Messages longer than this are cut (with an ellipsis) before they are shown. */
export const MESSAGE_MAX_LENGTH = 1000;

export const ERROR_TITLE = 'Error';
export const SUCCESS_TITLE = 'Success';
export const GENERIC_ERROR_TEXT =
  'An error occurred! This has been automatically reported to our support team. Please try again later or contact support if the issue persists.';
export const PAGE_NOT_FOUND_TEXT = 'Page not found!';
export const ERROR_LOADING_DATA = 'Error Loading Data';
export const NETWORK_ERROR = 'Network Error';
export const INVALID_CODE = 'Invalid Code';
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred';
/** The session check's "not signed in" answer, which is never logged. */
export const NO_CURRENT_USER = 'No current user';
export const DEFAULT_VIEW_NAME = 'Default View';

// ---- Reading errors of unknown shape ---------------------------------------------------

function cut(text: string): string {
  return text.length > MESSAGE_MAX_LENGTH ? `${text.slice(0, MESSAGE_MAX_LENGTH - 1)}…` : text;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? cut(value) : null;
}

function field(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return Object.hasOwn(value, key) || key in value ? (value as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** The server's message: response.data.message, body.message or data.message. */
export function serverMessage(err: unknown): string | null {
  return (
    nonEmpty(field(field(field(err, 'response'), 'data'), 'message')) ??
    nonEmpty(field(field(err, 'body'), 'message')) ??
    nonEmpty(field(field(err, 'data'), 'message'))
  );
}

/** The server's answer as text when it is not an object with a message. */
export function responseText(err: unknown): string | null {
  return (
    nonEmpty(field(field(err, 'response'), 'data')) ??
    nonEmpty(field(err, 'response')) ??
    nonEmpty(field(err, 'body')) ??
    nonEmpty(field(err, 'data'))
  );
}

/** The error's own message (an Error, or any object with a message, or a string). */
export function ownMessage(err: unknown): string | null {
  return typeof err === 'string' ? nonEmpty(err) : nonEmpty(field(err, 'message'));
}

/** Data-load toast detail (ERR-02): the server message, else the response, else 'Error Loading Data'. */
export function loadErrorDetail(err: unknown): string {
  return serverMessage(err) ?? ownMessage(err) ?? responseText(err) ?? ERROR_LOADING_DATA;
}

/** Mutation failure text (ERR-05): the server's message, else the error's own, else 'Network Error'. */
export function mutationErrorMessage(err: unknown): string {
  return serverMessage(err) ?? responseText(err) ?? ownMessage(err) ?? NETWORK_ERROR;
}

/** Mutation success text: the server's message, else 'Success'. */
export function mutationSuccessMessage(body: unknown): string {
  return nonEmpty(field(body, 'message')) ?? (typeof body === 'string' ? nonEmpty(body) : null) ?? SUCCESS_TITLE;
}

/** MFA failure text: the error's message, else 'Invalid Code'. */
export function mfaFailureMessage(err: unknown): string {
  return serverMessage(err) ?? ownMessage(err) ?? INVALID_CODE;
}

/** Any error as text (ERR-07): a message when one is found, else 'An unknown error occurred'. */
export function errorMessage(err: unknown): string {
  return serverMessage(err) ?? ownMessage(err) ?? responseText(err) ?? UNKNOWN_ERROR_MESSAGE;
}

/** True for the session check's 'No current user' answer, which stays silent. */
export function isNoCurrentUser(err: unknown): boolean {
  return (serverMessage(err) ?? ownMessage(err)) === NO_CURRENT_USER;
}

/** The toast id of a text: its first 15 characters. */
export function toastId(text: string): string {
  return Array.from(String(text)).slice(0, TOAST_ID_LENGTH).join('');
}
