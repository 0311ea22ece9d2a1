/** The rows the ingest writer derives from a batch and the repository stores (no SQL here). */
import type { Dm1State, EventLevel } from '@portal/core';

export interface EventRow {
  device_id: string;
  /** The event's name as the device gave it (CARD-27), or null. */
  name: string | null;
  ts: number;
  topic: string | null;
  msg: string;
  lv: number | null;
  severity: string | null;
}

/** An event as ingest stores it: with its level (core eventLevel), which its hourly and daily counts are kept by. */
export interface IngestEventRow extends EventRow {
  level: EventLevel;
}

export interface RollupRow {
  device_id: string;
  key: string;
  bucket: number;
  count: number;
  min: number;
  max: number;
  sum: number;
  first: number;
  last: number;
  first_ts: number;
  last_ts: number;
}

export interface LatestRow {
  device_id: string;
  key: string;
  value: unknown;
  ts: number;
}

/** A parameter group heard from a source on a device's CAN bus; a DM1's lamps and faults with it. */
export interface BusMessageRow {
  device_id: string;
  bus: number;
  pgn: number;
  source: number;
  ts: number;
  dm1: Dm1State | null;
}

export interface DiagnosticsRow {
  device_id: string;
  ts: number;
  data: unknown;
}
