/**
 * J1939 on a device's CAN buses (spec 2 'Reference tables'; DESIGN.md section 5): the parameter
 * group (PGN) and source of a frame's 29-bit identifier, active diagnostic trouble codes from DM1
 * messages (single frames, and multi-packet messages sent with the transport protocol's broadcast
 * announce, BAM), and the texts of fault codes (SPN:FMI) and bus message groups from the reference
 * tables. Pure: the tables are built from the reference data by whoever loads it (the server).
 */
import type { CanFrame } from '../contracts/device-record';

/** Parameter groups this module reads. */
export const J1939_PGN = {
  /** Active diagnostic trouble codes. */
  DM1: 65226,
  /** Transport protocol, connection management (BAM announces a multi-packet message). */
  TP_CM: 60416,
  /** Transport protocol, data transfer (7 bytes a packet, numbered from 1). */
  TP_DT: 60160,
} as const;

/** TP.CM's control byte for a broadcast announce (BAM). */
const TP_CM_BAM = 32;
/** The longest message the transport protocol carries (255 packets of 7 bytes). */
const TP_MAX_BYTES = 1785;
/** SPNs from here on are manufacturer-specific (SAE J1939-71). */
export const PROPRIETARY_SPN_FROM = 520_192;
/** The bus message-name lookup's range of parameter groups (spec 2 'Bus message names'). */
export const BUS_MESSAGE_PGN_RANGE = { min: 64_700, max: 130_816 } as const;

/** A frame's identifier as a number (the record carries a number or a hex string), or null when it is not a 29-bit one. */
export function canId(id: CanFrame['id']): number | null {
  const n = typeof id === 'number' ? id : Number.parseInt(id.replace(/^0x/i, ''), 16);
  return Number.isInteger(n) && n >= 0 && n <= 0x1fff_ffff ? n : null;
}

/**
 * The parameter group of a 29-bit identifier: data page bits and PDU format, with the PDU
 * specific byte only for broadcast groups (PDU format 240 and up); below 240 that byte is the
 * destination address, not part of the group.
 */
export function j1939Pgn(id: number): number {
  const pf = (id >>> 16) & 0xff;
  const group = (id >>> 8) & 0x3ffff;
  return pf < 240 ? group & 0x3ff00 : group;
}

/** The sending controller's address: the identifier's low byte. */
export const j1939Source = (id: number): number => id & 0xff;

/** The lamps a DM1 reports (each on when its two bits are 01). */
export interface Dm1Lamps {
  malfunction: boolean;
  redStop: boolean;
  amberWarning: boolean;
  protect: boolean;
}

/** An active fault: its parameter (SPN), failure mode (FMI) and how often it occurred (null: not available). */
export interface ActiveFault {
  spn: number;
  fmi: number;
  occurrences: number | null;
}

/** One controller's DM1: its address, lamps and active faults (none when it reports no active code). */
export interface Dm1Report {
  source: number;
  lamps: Dm1Lamps;
  faults: ActiveFault[];
}

/**
 * A DM1 payload's lamps and faults: two lamp bytes, then 4 bytes a code (SPN 19 bits: byte 1,
 * byte 2 and the top 3 bits of byte 3; FMI the low 5 bits of byte 3; byte 4 the conversion method
 * bit and a 7-bit occurrence count, 127 meaning not available). A code of all zeros (the 'no
 * active code' message) or all 0xFF (padding) is none; a short tail is padding. Null when the
 * payload is too short to be a DM1.
 */
export function dm1Faults(payload: readonly number[]): Omit<Dm1Report, 'source'> | null {
  if (payload.length < 6) return null;
  const on = (byte: number, shift: number) => ((byte >> shift) & 0b11) === 0b01;
  const lampByte = payload[0]!;
  const lamps = {
    malfunction: on(lampByte, 6),
    redStop: on(lampByte, 4),
    amberWarning: on(lampByte, 2),
    protect: on(lampByte, 0),
  };
  const faults: ActiveFault[] = [];
  for (let i = 2; i + 4 <= payload.length; i += 4) {
    const [b1, b2, b3, b4] = payload.slice(i, i + 4) as [number, number, number, number];
    if ((b1 | b2 | b3 | b4) === 0 || (b1 & b2 & b3 & b4) === 0xff) continue;
    const count = b4 & 0x7f;
    faults.push({ spn: b1 | (b2 << 8) | ((b3 >> 5) << 16), fmi: b3 & 0x1f, occurrences: count === 127 ? null : count });
  }
  return { lamps, faults };
}

/** A hex string's bytes (the record's data is checked to be whole hex bytes). */
function bytesOf(hex: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 2 <= hex.length; i += 2) out.push(Number.parseInt(hex.slice(i, i + 2), 16));
  return out;
}

/**
 * The DM1 reports in a record's frames, in the order they complete: a DM1 frame directly (also a
 * longer one a device logged already reassembled), or a multi-packet DM1 from a BAM announce and
 * its data packets from the same source (in order; a packet out of sequence drops that message,
 * as a receiver on the bus would). A controller reporting twice in the frames gives two reports;
 * the last is its current state.
 */
export function decodeDm1Frames(frames: readonly CanFrame[]): Dm1Report[] {
  const reports: Dm1Report[] = [];
  /** Messages being received per source: the announced size, the next packet number, the bytes so far. */
  const open = new Map<number, { size: number; packets: number; next: number; bytes: number[] }>();
  for (const frame of frames) {
    const id = canId(frame.id);
    if (id === null) continue;
    const pgn = j1939Pgn(id);
    const source = j1939Source(id);
    const data = bytesOf(frame.data);
    if (pgn === J1939_PGN.DM1) {
      const decoded = dm1Faults(data);
      if (decoded) reports.push({ source, ...decoded });
    } else if (pgn === J1939_PGN.TP_CM && data.length >= 8 && data[0] === TP_CM_BAM) {
      const size = data[1]! | (data[2]! << 8);
      const transported = data[5]! | (data[6]! << 8) | (data[7]! << 16);
      if (transported === J1939_PGN.DM1 && size > 8 && size <= TP_MAX_BYTES && data[3]! === Math.ceil(size / 7))
        open.set(source, { size, packets: data[3]!, next: 1, bytes: [] });
      else open.delete(source);
    } else if (pgn === J1939_PGN.TP_DT && data.length >= 2) {
      const message = open.get(source);
      if (!message) continue;
      if (data[0] !== message.next) {
        open.delete(source);
        continue;
      }
      message.bytes.push(...data.slice(1, 8));
      message.next += 1;
      if (message.next > message.packets) {
        open.delete(source);
        const decoded = dm1Faults(message.bytes.slice(0, message.size));
        if (decoded) reports.push({ source, ...decoded });
      }
    }
  }
  return reports;
}

/** A parameter's entry in the reference data. */
export interface SpnEntry {
  spn: number;
  name: string;
  /** The source names a reserved or unused slot, not a parameter. */
  placeholder?: boolean;
  /** Inside a manufacturer-specific range. */
  proprietary_range?: boolean;
}

/** A failure mode's entry in the reference data; `short` reads after a parameter's name. */
export interface FmiEntry {
  fmi: number;
  name: string;
  short: string;
  description?: string | null;
  reserved?: boolean;
}

/** A parameter group's entry in the reference data. */
export interface PgnEntry {
  pgn: number;
  name: string;
  acronym?: string;
  protocol?: string;
}

/** The reference tables, looked up by number. */
export interface J1939Reference {
  spns: ReadonlyMap<number, SpnEntry>;
  fmis: ReadonlyMap<number, FmiEntry>;
  /** The bus message names: parameter groups within BUS_MESSAGE_PGN_RANGE. */
  pgns: ReadonlyMap<number, PgnEntry>;
  /** Every parameter group the reference data names (engine messages below the lookup's range too). */
  allPgns: ReadonlyMap<number, PgnEntry>;
}

/** The tables from the reference data's lists (spn-names.json, fmi.json, pgn-names.json). */
export function j1939Reference(data: {
  spns: readonly SpnEntry[];
  fmis: readonly FmiEntry[];
  pgns: readonly PgnEntry[];
}): J1939Reference {
  const inRange = (p: PgnEntry) => p.pgn >= BUS_MESSAGE_PGN_RANGE.min && p.pgn <= BUS_MESSAGE_PGN_RANGE.max;
  return {
    spns: new Map(data.spns.map((s) => [s.spn, s])),
    fmis: new Map(data.fmis.map((f) => [f.fmi, f])),
    pgns: new Map(data.pgns.filter(inRange).map((p) => [p.pgn, p])),
    allPgns: new Map(data.pgns.map((p) => [p.pgn, p])),
  };
}

/** A fault code's key, 'SPN:FMI'. */
export const faultCodeKey = (spn: number, fmi: number): string => `${spn}:${fmi}`;

/** The SPN and FMI of a key 'SPN:FMI' (SPN 0-524287, FMI 0-31), or null. */
export function parseFaultCodeKey(key: string): { spn: number; fmi: number } | null {
  const match = /^(\d{1,6}):(\d{1,2})$/.exec(key.trim());
  if (!match) return null;
  const spn = Number(match[1]);
  const fmi = Number(match[2]);
  return spn <= 0x7ffff && fmi <= 31 ? { spn, fmi } : null;
}

/**
 * A fault code's description: '{SPN name} - {failure mode}' ('Engine Oil Pressure - Below normal
 * (most severe)'); an unknown parameter or a placeholder 'SPN {n} - …', a manufacturer-specific
 * one 'Manufacturer-specific SPN {n} - …'; an unknown failure mode 'FMI {n}'.
 */
export function describeFault(spn: number, fmi: number, reference: J1939Reference): string {
  const { spnName, fmiText } = faultTexts(spn, fmi, reference);
  return `${spnName} - ${fmiText}`;
}

/**
 * A fault code's two texts: the parameter's name ('Manufacturer-specific SPN {n}' or 'SPN {n}'
 * when the data has none) and the failure mode's short text ('FMI {n}' when unknown).
 */
export function faultTexts(spn: number, fmi: number, reference: J1939Reference): { spnName: string; fmiText: string } {
  const fmiText = reference.fmis.get(fmi)?.short ?? `FMI ${fmi}`;
  const entry = reference.spns.get(spn);
  if (entry?.proprietary_range || spn >= PROPRIETARY_SPN_FROM)
    return { spnName: `Manufacturer-specific SPN ${spn}`, fmiText };
  return { spnName: !entry || entry.placeholder ? `SPN ${spn}` : entry.name, fmiText };
}

/** The description of a key 'SPN:FMI' (REF-03); a key that is not one reads 'Unknown fault code {key}'. */
export function describeFaultCode(key: string, reference: J1939Reference): string {
  const code = parseFaultCodeKey(key);
  return code ? describeFault(code.spn, code.fmi, reference) : `Unknown fault code ${key}`;
}

const pgnEntryName = (entry: PgnEntry) => (entry.acronym ? `${entry.name} (${entry.acronym})` : entry.name);

/** A bus message group's name ('Active Diagnostic Trouble Codes (DM1)'), or 'PGN {n}' when the lookup has none. */
export function busMessageName(pgn: number, reference: J1939Reference): string {
  const entry = reference.pgns.get(pgn);
  return entry ? pgnEntryName(entry) : `PGN ${pgn}`;
}

/**
 * The name of a parameter group seen on a device's bus: the bus message-name lookup's, else the
 * reference data's for groups below its range (engine messages such as EEC1, 61444), else 'PGN {n}'.
 */
export function parameterGroupName(pgn: number, reference: J1939Reference): string {
  const entry = reference.pgns.get(pgn) ?? reference.allPgns.get(pgn);
  return entry ? pgnEntryName(entry) : `PGN ${pgn}`;
}

/** A DM1 as kept for a device: its lamps and active faults. */
export type Dm1State = Omit<Dm1Report, 'source'>;

/** A parameter group heard from one source on a bus; the DM1's state with it for PGN 65226. */
export interface BusGroupSeen {
  pgn: number;
  source: number;
  dm1: Dm1State | null;
}

/**
 * What a record's frames from one bus tell: each parameter group and source once (in first-seen
 * order), and for each source that sent a DM1 (directly or multi-packet) its last report, as the
 * group 65226 of that source. The transport protocol's own groups are listed as heard.
 */
export function busGroupsOf(frames: readonly CanFrame[]): BusGroupSeen[] {
  const seen = new Map<string, BusGroupSeen>();
  for (const frame of frames) {
    const id = canId(frame.id);
    if (id === null) continue;
    const pgn = j1939Pgn(id);
    const source = j1939Source(id);
    const key = `${pgn}:${source}`;
    if (!seen.has(key)) seen.set(key, { pgn, source, dm1: null });
  }
  for (const report of decodeDm1Frames(frames)) {
    const { source, ...state } = report;
    seen.set(`${J1939_PGN.DM1}:${source}`, { pgn: J1939_PGN.DM1, source, dm1: state });
  }
  return [...seen.values()];
}
