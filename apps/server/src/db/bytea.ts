/**
 * A bytea column as read: PostgreSQL answers a Buffer, PGlite (through its worker) a Uint8Array;
 * the same bytes either way, as a Buffer without a copy.
 */
export function byteaBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
