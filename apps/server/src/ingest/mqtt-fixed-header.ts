/**
 * The size each MQTT packet declares, read as the bytes pass: the pure part of the embedded
 * broker's connection guard (mqtt-guard.ts), which closes a connection whose packet is over the cap
 * before its body is buffered.
 */

/** MQTT's remaining length takes at most 4 bytes (MQTT 3.1.1 section 2.2.3). */
const MAX_LENGTH_BYTES = 4;

/**
 * Reads the fixed headers of an MQTT byte stream as it passes, chunk by chunk, and skips each
 * packet's body without keeping it. `read` returns why the stream must be closed as soon as a
 * packet declares more than `maxPacketBytes` (fixed header included), before its body arrives.
 */
export class FixedHeaderReader {
  /** Body bytes of the current packet still to skip. */
  private skip = 0;
  /** Where the next header byte goes: the type byte, or one of the remaining-length bytes. */
  private inLength = false;
  private length = 0;
  private lengthBytes = 0;
  private multiplier = 1;

  constructor(private readonly maxPacketBytes: number) {}

  /** Reads the next bytes of the stream; returns a refusal reason, or null while every packet fits. */
  read(chunk: Uint8Array): string | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (!this.inLength) {
        this.inLength = true;
        this.length = 0;
        this.lengthBytes = 0;
        this.multiplier = 1;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes += 1;
      // Each length byte only adds: a partial length already over the cap is refused at once.
      const declared = 1 + this.lengthBytes + this.length;
      if (declared > this.maxPacketBytes) {
        return `a packet of at least ${declared} bytes is over the limit of ${this.maxPacketBytes}`;
      }
      if (byte & 0x80) {
        if (this.lengthBytes === MAX_LENGTH_BYTES) return 'a malformed remaining length';
        continue;
      }
      this.inLength = false;
      this.skip = this.length;
    }
    return null;
  }
}
