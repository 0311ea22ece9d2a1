/**
 * J1939 (spec 2 'Reference tables'; ledger REF-03 - REF-05): identifiers, DM1 payloads, DM1 sent
 * with the transport protocol's broadcast announce, and the fault-code and bus-message texts from
 * the reference data the project carries (packages/core/refdata).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUS_MESSAGE_PGN_RANGE,
  J1939_PGN,
  busGroupsOf,
  busMessageName,
  faultTexts,
  parameterGroupName,
  canId,
  decodeDm1Frames,
  describeFault,
  describeFaultCode,
  dm1Faults,
  faultCodeKey,
  j1939Pgn,
  j1939Reference,
  j1939Source,
  parseFaultCodeKey,
  type CanFrame,
  type FmiEntry,
  type PgnEntry,
  type SpnEntry,
} from '../src';

const refdata = <T>(file: string) =>
  JSON.parse(readFileSync(new URL(`../refdata/${file}`, import.meta.url), 'utf8')) as T[];
const reference = j1939Reference({
  spns: refdata<SpnEntry>('spn-names.json'),
  fmis: refdata<FmiEntry>('fmi.json'),
  pgns: refdata<PgnEntry>('pgn-names.json'),
});

/** A 29-bit identifier: priority, parameter group (with the destination for PDU1 groups) and source. */
const idOf = (priority: number, pgn: number, source: number) => (priority << 26) | (pgn << 8) | source;
const hex = (bytes: number[]) =>
  bytes
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
const frame = (id: number, bytes: number[]): CanFrame => ({ id, data: hex(bytes) });

/** A DTC's 4 bytes. */
const dtc = (spn: number, fmi: number, count: number) => [
  spn & 0xff,
  (spn >> 8) & 0xff,
  ((spn >> 16) << 5) | fmi,
  count,
];

describe('identifiers', () => {
  it('takes the parameter group and source of a 29-bit identifier, without the destination of a PDU1 group', () => {
    expect(j1939Pgn(0x18feca00)).toBe(J1939_PGN.DM1);
    expect(j1939Source(0x18feca17)).toBe(0x17);
    expect(j1939Pgn(0x0cf00400)).toBe(61444); // EEC1
    expect(j1939Pgn(0x1cecff00)).toBe(J1939_PGN.TP_CM); // to everyone (BAM)
    expect(j1939Pgn(0x1cec2100)).toBe(J1939_PGN.TP_CM); // to address 0x21
    expect(j1939Pgn(0x1cebff00)).toBe(J1939_PGN.TP_DT);
    expect(j1939Pgn(0x19fecaff)).toBe(0x1feca); // data page 1
  });

  it('reads a number or a hex string, refusing what is not 29 bits', () => {
    expect(canId(0x18feca00)).toBe(0x18feca00);
    expect(canId('18FECA00')).toBe(0x18feca00);
    expect(canId('0x18feca00')).toBe(0x18feca00);
    expect(canId('FFFFFFFF')).toBeNull();
    expect(canId(2 ** 29)).toBeNull();
  });
});

describe('DM1 payloads', () => {
  it("reads 'no active code' as no faults, with the lamps off", () => {
    expect(dm1Faults([0x00, 0xff, 0, 0, 0, 0, 0xff, 0xff])).toEqual({
      lamps: { malfunction: false, redStop: false, amberWarning: false, protect: false },
      faults: [],
    });
  });

  it('reads the lamps and each code: SPN of 19 bits, FMI, occurrence count (127: not available)', () => {
    const decoded = dm1Faults([0b0100_0100, 0xff, ...dtc(100, 1, 3), ...dtc(520_200, 31, 127), ...dtc(110, 0, 1)]);
    expect(decoded?.lamps).toEqual({ malfunction: true, redStop: false, amberWarning: true, protect: false });
    expect(decoded?.faults).toEqual([
      { spn: 100, fmi: 1, occurrences: 3 },
      { spn: 520_200, fmi: 31, occurrences: null },
      { spn: 110, fmi: 0, occurrences: 1 },
    ]);
  });

  it('skips padding (0xFF codes, a short tail) and refuses a payload too short for a code', () => {
    expect(dm1Faults([0x00, 0xff, ...dtc(100, 1, 3), 0xff, 0xff])?.faults).toHaveLength(1);
    expect(dm1Faults([0x00, 0xff, ...dtc(100, 1, 3), 0xff, 0xff, 0xff, 0xff])?.faults).toHaveLength(1);
    expect(dm1Faults([0x00, 0xff, 0x64])).toBeNull();
  });
});

/** A DM1's identifier, a broadcast announce (BAM) and the packets that carry a payload. */
const dm1Id = (source: number) => idOf(6, J1939_PGN.DM1, source);
const bam = (source: number, size: number, pgn: number = J1939_PGN.DM1) =>
  frame(idOf(7, J1939_PGN.TP_CM | 0xff, source), [
    32,
    size & 0xff,
    size >> 8,
    Math.ceil(size / 7),
    0xff,
    pgn & 0xff,
    (pgn >> 8) & 0xff,
    pgn >> 16,
  ]);
const packets = (source: number, payload: number[]) => {
  const out: CanFrame[] = [];
  for (let i = 0; i * 7 < payload.length; i++) {
    const chunk = payload.slice(i * 7, i * 7 + 7);
    while (chunk.length < 7) chunk.push(0xff);
    out.push(frame(idOf(7, J1939_PGN.TP_DT | 0xff, source), [i + 1, ...chunk]));
  }
  return out;
};

describe('DM1 frames', () => {
  const twoFaults = [0x04, 0xff, ...dtc(100, 1, 3), ...dtc(110, 16, 2)];

  it('decodes a single-frame DM1 and one a device logged already reassembled', () => {
    const reports = decodeDm1Frames([
      frame(dm1Id(0x00), [0x04, 0xff, ...dtc(100, 1, 3), 0xff, 0xff]),
      { id: hex([0x18, 0xfe, 0xca, 0x17]), data: hex(twoFaults) },
    ]);
    expect(reports.map((r) => [r.source, r.faults.map((f) => faultCodeKey(f.spn, f.fmi))])).toEqual([
      [0x00, ['100:1']],
      [0x17, ['100:1', '110:16']],
    ]);
  });

  it('reassembles a multi-packet DM1 from its broadcast announce and packets, sources kept apart', () => {
    const fromEngine = packets(0x00, twoFaults);
    const fromBrakes = packets(0x0b, [0x10, 0xff, ...dtc(521, 7, 1), ...dtc(1045, 2, 4)]);
    const reports = decodeDm1Frames([
      bam(0x00, twoFaults.length),
      bam(0x0b, 10),
      fromEngine[0]!,
      fromBrakes[0]!,
      frame(idOf(3, 61444, 0x00), [0xf3, 0xff, 0x8c, 0x20, 0x4e, 0x00, 0xff, 0xff]), // EEC1 between
      fromBrakes[1]!,
      fromEngine[1]!,
    ]);
    expect(reports).toEqual([
      {
        source: 0x0b,
        lamps: { malfunction: false, redStop: true, amberWarning: false, protect: false },
        faults: [
          { spn: 521, fmi: 7, occurrences: 1 },
          { spn: 1045, fmi: 2, occurrences: 4 },
        ],
      },
      {
        source: 0x00,
        lamps: { malfunction: false, redStop: false, amberWarning: true, protect: false },
        faults: [
          { spn: 100, fmi: 1, occurrences: 3 },
          { spn: 110, fmi: 16, occurrences: 2 },
        ],
      },
    ]);
  });

  it('drops a message whose packets come out of order, packets without an announce, and other groups', () => {
    const [first, second] = packets(0x00, twoFaults);
    expect(decodeDm1Frames([bam(0x00, twoFaults.length), second!, first!])).toEqual([]);
    expect(decodeDm1Frames([first!, second!])).toEqual([]);
    expect(decodeDm1Frames([bam(0x00, twoFaults.length, 65227), first!, second!])).toEqual([]);
    expect(decodeDm1Frames([{ id: 'FFFFFFFF', data: hex(twoFaults) }])).toEqual([]);
  });
});

describe('fault codes (REF-03)', () => {
  it("describes a known SPN:FMI as '{SPN name} - {failure mode}'", () => {
    expect(describeFaultCode('100:1', reference)).toBe('Engine Oil Pressure - Below normal (most severe)');
    expect(describeFault(110, 0, reference)).toBe('Engine Coolant Temperature 1 - Above normal (most severe)');
  });

  it('falls back for an unknown or placeholder SPN, a manufacturer-specific one, and a key that is not one', () => {
    expect(describeFault(3014, 1, reference)).toBe('SPN 3014 - Below normal (most severe)');
    expect(reference.spns.get(1545)?.placeholder).toBe(true);
    expect(describeFault(1545, 1, reference)).toBe('SPN 1545 - Below normal (most severe)');
    expect(describeFault(520_200, 31, reference)).toBe('Manufacturer-specific SPN 520200 - Condition exists');
    expect(describeFaultCode('100-1', reference)).toBe('Unknown fault code 100-1');
    expect(parseFaultCodeKey('524288:1')).toBeNull();
    expect(parseFaultCodeKey('100:32')).toBeNull();
    expect(parseFaultCodeKey(' 100:1 ')).toEqual({ spn: 100, fmi: 1 });
  });

  it('has every failure mode 0-31', () => {
    expect([...reference.fmis.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i));
  });
});

describe('bus message names (REF-04, REF-05)', () => {
  it('holds the groups from 64700 to 130816 only', () => {
    const keys = [...reference.pgns.keys()];
    expect(keys.length).toBe(1024);
    expect(Math.min(...keys)).toBeGreaterThanOrEqual(BUS_MESSAGE_PGN_RANGE.min);
    expect(Math.max(...keys)).toBeLessThanOrEqual(BUS_MESSAGE_PGN_RANGE.max);
  });

  it.each([
    ['engine', 65262, 'Engine Temperature 1 (ET1)'],
    ['aftertreatment', 64948, 'Aftertreatment 1 Intake Gas 2 (AT1IG2)'],
    ['diagnostic trouble codes', 65226, 'Active Diagnostic Trouble Codes (DM1)'],
    ['joystick', 64982, 'Basic Joystick Message 1'],
    ['auxiliary valve', 65040, 'Auxiliary valve 0 estimated flow'],
    ['marine navigation', 129025, 'Position, Rapid Update'],
  ])('names a %s message', (_kind, pgn, name) => expect(busMessageName(pgn, reference)).toBe(name));

  it("answers 'PGN {n}' outside the lookup", () => {
    expect(busMessageName(61444, reference)).toBe('PGN 61444');
    expect(busMessageName(64699, reference)).toBe('PGN 64699');
  });
});

describe('what a device hears on a bus (the Diagnostics page)', () => {
  it('lists each group and source once, with each source’s last DM1 as its group 65226', () => {
    const engineDm1 = [0x04, 0xff, ...dtc(100, 1, 3), ...dtc(110, 16, 2)];
    const [first, second] = packets(0x00, engineDm1);
    const groups = busGroupsOf([
      frame(idOf(3, 61444, 0x00), [0xf3, 0xff, 0x8c, 0x20, 0x4e, 0x00, 0xff, 0xff]),
      frame(idOf(6, 65262, 0x00), [0x5a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      frame(idOf(3, 61444, 0x00), [0xf3, 0xff, 0x8c, 0x20, 0x4e, 0x00, 0xff, 0xff]),
      frame(dm1Id(0x17), [0x00, 0xff, ...dtc(0, 0, 0), 0xff, 0xff]),
      bam(0x00, engineDm1.length),
      first!,
      second!,
      { id: 'zz', data: '' } as unknown as CanFrame,
    ]);
    expect(groups.map((g) => [g.pgn, g.source])).toEqual([
      [61444, 0x00],
      [65262, 0x00],
      [J1939_PGN.DM1, 0x17],
      [J1939_PGN.TP_CM, 0x00],
      [J1939_PGN.TP_DT, 0x00],
      [J1939_PGN.DM1, 0x00],
    ]);
    expect(groups[2]!.dm1).toEqual({
      lamps: { malfunction: false, redStop: false, amberWarning: false, protect: false },
      faults: [],
    });
    expect(groups[5]!.dm1?.faults.map((f) => faultCodeKey(f.spn, f.fmi))).toEqual(['100:1', '110:16']);
    expect(groups[0]!.dm1).toBeNull();
  });

  it('names a fault’s parameter and failure mode apart, with the fallbacks', () => {
    expect(faultTexts(100, 1, reference)).toEqual({
      spnName: 'Engine Oil Pressure',
      fmiText: 'Below normal (most severe)',
    });
    expect(faultTexts(3014, 40, reference)).toEqual({ spnName: 'SPN 3014', fmiText: 'FMI 40' });
    expect(faultTexts(520_200, 31, reference).spnName).toBe('Manufacturer-specific SPN 520200');
  });

  it('names groups below the lookup’s range from the reference data, and unknown ones by number', () => {
    expect(parameterGroupName(61444, reference)).toBe('Electronic Engine Controller 1 (EEC1)');
    expect(parameterGroupName(65226, reference)).toBe('Active Diagnostic Trouble Codes (DM1)');
    expect(parameterGroupName(1, reference)).toBe('PGN 1');
  });
});
