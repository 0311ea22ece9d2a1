import type { CommandAck, CommandMessage, DeviceRecord } from '@portal/core';
import { HttpError, type DeviceLink } from '../src/links';

/** An in-memory link: records what a device sends, lets a test push commands or cut the line. */
export class MemoryLink implements DeviceLink {
  readonly kind = 'memory';
  connected = false;
  /** Each message the device sent (one array per message). */
  readonly messages: { at: number; records: DeviceRecord[] }[] = [];
  readonly diags: Record<string, unknown>[] = [];
  /** Command ids acknowledged, in order. */
  readonly acks: number[] = [];
  /** Every acknowledgement as sent. */
  readonly ackMessages: CommandAck[] = [];
  /** What `download` serves, by path (a missing path answers 404). */
  readonly served = new Map<string, Buffer>();
  /** Paths downloaded, in order. */
  readonly downloads: string[] = [];
  /** Downloads fail (as a network error) while set. */
  downloadsFail = false;
  connectAttempts = 0;
  down = false;
  /** The reply to the next sendRecords (the HTTP way of delivering commands). */
  nextReply: CommandMessage | null = null;
  private handler: (message: CommandMessage) => void = () => {};
  private lost: (reason: string) => void = () => {};

  constructor(private readonly now: () => number) {}

  get records(): DeviceRecord[] {
    return this.messages.flatMap((m) => m.records);
  }

  async connect(): Promise<void> {
    this.connectAttempts += 1;
    if (this.down) throw new Error('Connection refused');
    this.connected = true;
  }

  async sendRecords(records: DeviceRecord[]): Promise<CommandMessage | null> {
    if (this.down || !this.connected) throw new Error('Not connected');
    this.messages.push({ at: this.now(), records: structuredClone(records) });
    const reply = this.nextReply;
    this.nextReply = null;
    return reply;
  }

  async sendDiag(diag: Record<string, unknown>): Promise<boolean> {
    if (this.down || !this.connected) throw new Error('Not connected');
    this.diags.push(diag);
    return true;
  }

  async ack(ack: CommandAck): Promise<boolean> {
    if (this.down || !this.connected) throw new Error('Not connected');
    this.ackMessages.push(ack);
    if (ack.id !== undefined) this.acks.push(ack.id);
    return true;
  }

  async download(path: string): Promise<Buffer> {
    this.downloads.push(path);
    if (this.downloadsFail) throw new Error('Network unreachable');
    const bytes = this.served.get(path);
    if (!bytes) throw new HttpError(404, 'HTTP 404: File not found');
    return bytes;
  }

  onCommands(handler: (message: CommandMessage) => void): void {
    this.handler = handler;
  }

  onDisconnect(handler: (reason: string) => void): void {
    this.lost = handler;
  }

  /** Pushes a command message as the broker would on dev/{id}/cmd. */
  push(message: CommandMessage): void {
    this.handler(message);
  }

  /** Drops the connection; connects fail until `restore`. */
  cut(): void {
    this.down = true;
    this.connected = false;
    this.lost('cut by test');
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.connected = false;
  }
}

/** Waits (real time) until `check` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A device id of 9 uppercase letters and digits, unique per call. */
export function randomDeviceId(): string {
  const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  let id = '';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(9));
  for (const b of bytes) id += chars[b % chars.length];
  return id;
}
