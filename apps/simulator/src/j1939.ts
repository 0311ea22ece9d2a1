/**
 * J1939 frames as a device logs them from the vehicle bus: a 29-bit identifier
 * (priority << 26 | PGN << 8 | source address) and the data bytes as a hex string.
 *
 * Parameters encoded (SAE J1939-71 / -73 scaling):
 * - EEC1, PGN 61444 (0xF004): engine speed SPN 190, bytes 4-5, 0.125 rpm/bit, little endian;
 *   actual engine torque SPN 513, byte 3, 1 %/bit, offset -125.
 * - ET1, PGN 65262 (0xFEEE): coolant temperature SPN 110, byte 1, 1 degC/bit, offset -40.
 * - DD, PGN 65276 (0xFEFC): fuel level 1 SPN 96, byte 2, 0.4 %/bit.
 * - DM1, PGN 65226 (0xFECA): lamp status in bytes 1-2, then 4 bytes per fault: SPN low byte,
 *   SPN middle byte, (SPN high 3 bits << 5 | FMI), (CM << 7 | occurrence count). With no fault
 *   the DTC bytes are zero. A message with more than one fault is longer than 8 bytes (sent with
 *   the transport protocol on the bus); it is logged here as the reassembled payload.
 */
export const PGN = { EEC1: 61444, ET1: 65262, DD: 65276, DM1: 65226 } as const;

export const SOURCE = { engine: 0x00, cluster: 0x17 } as const;

export interface CanFrameOut {
  id: number;
  data: string;
}

export interface Dtc {
  spn: number;
  fmi: number;
  occurrences: number;
}

export interface Lamps {
  mil?: boolean;
  redStop?: boolean;
  amberWarning?: boolean;
  protect?: boolean;
}

export function j1939Id(priority: number, pgn: number, source: number): number {
  return ((priority & 0x7) << 26) | ((pgn & 0x3ffff) << 8) | (source & 0xff);
}

export function toHex(bytes: readonly number[]): string {
  return bytes.map((b) => (b & 0xff).toString(16).padStart(2, '0').toUpperCase()).join('');
}

const clampByte = (v: number) => Math.max(0, Math.min(250, Math.round(v)));

export function eec1(rpm: number, torquePercent: number, source: number = SOURCE.engine): CanFrameOut {
  const raw = Math.max(0, Math.min(64255, Math.round(rpm / 0.125)));
  const bytes = [0xf0 | 0x03, 0xff, clampByte(torquePercent + 125), raw & 0xff, raw >> 8, source, 0xff, 0xff];
  return { id: j1939Id(3, PGN.EEC1, source), data: toHex(bytes) };
}

export function engineTemperature1(coolantC: number, source: number = SOURCE.engine): CanFrameOut {
  const bytes = [clampByte(coolantC + 40), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  return { id: j1939Id(6, PGN.ET1, source), data: toHex(bytes) };
}

export function dashDisplay(fuelPercent: number, source: number = SOURCE.cluster): CanFrameOut {
  const bytes = [0xff, clampByte(fuelPercent / 0.4), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  return { id: j1939Id(6, PGN.DD, source), data: toHex(bytes) };
}

const lampBits = (on: boolean | undefined) => (on ? 0b01 : 0b00);

export function dm1(dtcs: readonly Dtc[], lamps: Lamps = {}, source: number = SOURCE.engine): CanFrameOut {
  const lampByte =
    (lampBits(lamps.mil) << 6) |
    (lampBits(lamps.redStop) << 4) |
    (lampBits(lamps.amberWarning) << 2) |
    lampBits(lamps.protect);
  const bytes = [lampByte, 0xff];
  if (dtcs.length === 0) bytes.push(0, 0, 0, 0, 0xff, 0xff);
  for (const dtc of dtcs) {
    bytes.push(
      dtc.spn & 0xff,
      (dtc.spn >> 8) & 0xff,
      (((dtc.spn >> 16) & 0x7) << 5) | (dtc.fmi & 0x1f),
      Math.min(126, Math.max(1, dtc.occurrences)) & 0x7f,
    );
  }
  if (dtcs.length === 1) bytes.push(0xff, 0xff);
  return { id: j1939Id(6, PGN.DM1, source), data: toHex(bytes) };
}
