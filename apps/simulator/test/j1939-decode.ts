/**
 * A small J1939 decoder for the tests: the inverse of src/j1939.ts's parameters, written from the
 * standard. DM1 messages are read with the portal's own decoder (core decodeDm1Frames).
 */
export interface DecodedId {
  priority: number;
  pgn: number;
  source: number;
}

export function decodeId(id: number | string): DecodedId {
  const n = typeof id === 'number' ? id : parseInt(id.replace(/^0x/i, ''), 16);
  const priority = (n >>> 26) & 0x7;
  const dp = (n >>> 24) & 0x3;
  const pf = (n >>> 16) & 0xff;
  const ps = (n >>> 8) & 0xff;
  // PDU1 (PF < 240): PS is a destination address, not part of the PGN
  const pgn = (dp << 16) | (pf << 8) | (pf < 240 ? 0 : ps);
  return { priority, pgn, source: n & 0xff };
}

export function bytes(hex: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16));
  return out;
}

const byte = (b: number[], i: number) => {
  const v = b[i];
  if (v === undefined) throw new Error(`no byte ${i}`);
  return v;
};

/** EEC1: engine speed (SPN 190) in rpm, actual torque (SPN 513) in %. */
export function decodeEec1(hex: string): { rpm: number; torque: number } {
  const b = bytes(hex);
  return { rpm: (byte(b, 3) | (byte(b, 4) << 8)) * 0.125, torque: byte(b, 2) - 125 };
}

/** ET1: coolant temperature (SPN 110) in degC. */
export function decodeEt1(hex: string): number {
  return byte(bytes(hex), 0) - 40;
}

/** Dash display: fuel level 1 (SPN 96) in %. */
export function decodeFuel(hex: string): number {
  return byte(bytes(hex), 1) * 0.4;
}
