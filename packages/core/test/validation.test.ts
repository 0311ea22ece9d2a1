import { describe, expect, it } from 'vitest';
import {
  DeviceNotesSchema,
  NOTES_IMAGES_READ_ONLY_MESSAGE,
  NOTES_IMAGE_SLOTS,
  NotesImagePutBodySchema,
  imageUploadError,
  notesImagePath,
  COUNTRY_CALLING_CODES,
  DEFAULT_SORT_ORDER,
  GROUP_NAME_REQUIRED,
  IMAGE_MAX_BASE64,
  IMAGE_MAX_BYTES,
  IMAGE_NOT_BASE64_MESSAGE,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  INVALID_DATE_RANGE,
  PASSWORD_MIN_LENGTH,
  canSubmitLogin,
  clampDecimalPlaces,
  clampHeadlineDecimalPlaces,
  clampInteger,
  cleanMfaCode,
  customPageName,
  customSettingError,
  dateRangeError,
  defaultViewName,
  imageError,
  isDeviceNameEditable,
  isNumericText,
  isValidEmail,
  isValidMfaCode,
  isValidPhone,
  normaliseEmail,
  parseSortOrder,
  sanitise,
  sanitiseDisplayText,
  validateGroupName,
  viewNameOrDefault,
} from '../src/index';

const LONG = 'x'.repeat(100_000);

describe('country calling codes', () => {
  it.each(['1', '7', '20', '27', '30', '44', '49', '61', '64', '86', '91', '212', '353', '380', '852', '971', '998'])(
    'includes %s',
    (code) => expect(COUNTRY_CALLING_CODES.has(code)).toBe(true),
  );

  it.each(['0', '2', '3', '21', '28', '42', '59', '80', '999', '384', '969', '__proto__', ''])(
    'excludes %s',
    (code) => {
      expect(COUNTRY_CALLING_CODES.has(code)).toBe(false);
    },
  );

  it('holds digit strings of 1-3 digits, roughly the ITU list size', () => {
    for (const code of COUNTRY_CALLING_CODES) expect(code).toMatch(/^[1-9]\d{0,2}$/);
    expect(COUNTRY_CALLING_CODES.size).toBeGreaterThan(200);
    expect(COUNTRY_CALLING_CODES.size).toBeLessThan(260);
  });

  it('is prefix-free (no code starts another code)', () => {
    const codes = [...COUNTRY_CALLING_CODES];
    const clashes = codes.flatMap((a) => codes.filter((b) => a !== b && b.startsWith(a)).map((b) => `${a}<${b}`));
    expect(clashes).toEqual([]);
  });
});

describe('AUTH-20 phone', () => {
  it.each([
    ['+61412345678', true],
    ['+14155550123', true],
    ['+447911123456', true],
    ['+8613800138000', true],
    ['+998901234567', true],
    ['+123456789012345', true], // 15 digits after '+'
    ['0412345678', false],
    ['+999123', false], // invalid code
    ['+1234567890123456', false], // 16 digits
    ['+61', false], // code only
    ['+61 412 345 678', false],
    ['61412345678', false],
    ['+0412345678', false],
    ['', false],
    ['+', false],
    ['__proto__', false],
    [LONG, false],
  ])('%s -> %s', (phone, ok) => {
    expect(isValidPhone(phone)).toBe(ok);
  });
});

describe('login, e-mail and MFA', () => {
  it.each([
    ['a@b.co', 'pass1234', true],
    ['a@b.co', 'pass123', false],
    ['', 'pass1234', false],
    ['   ', 'pass1234', false],
    ['a@b.co', '', false],
  ])('AUTH-02 canSubmitLogin(%s, %s) -> %s', (email, password, ok) => {
    expect(canSubmitLogin(email, password)).toBe(ok);
  });

  it('AUTH-02: the minimum password length is 8', () => expect(PASSWORD_MIN_LENGTH).toBe(8));

  it('AUTH-03: e-mail is lower-cased and trimmed', () => {
    expect(normaliseEmail(' User@Example.com ')).toBe('user@example.com');
  });

  it.each([
    ['user@example.com', true],
    ['first.last+tag@sub.example.co.uk', true],
    ['user@example.cm', false],
    ['user@example.om', false],
    ['user@example.COM', true],
    ['user@example.OM', false],
    ['user@localhost', false],
    ['user', false],
    ['@example.com', false],
    ['', false],
    ['__proto__', false],
    [`${'a'.repeat(250)}@b.co`, false],
  ])('isValidEmail(%s) -> %s', (email, ok) => {
    expect(isValidEmail(email)).toBe(ok);
  });

  it.each([
    ['12-34 56', '123456'],
    ['1234567', '123456'],
    ['abc', ''],
    ['', ''],
    ['１２３', ''],
  ])('AUTH-06 cleanMfaCode(%s) -> %s', (input, out) => {
    expect(cleanMfaCode(input)).toBe(out);
  });

  it.each([
    ['123456', true],
    ['12345', false],
    ['1234567', false],
    ['12345a', false],
    ['', false],
  ])('AUTH-05 isValidMfaCode(%s) -> %s', (code, ok) => expect(isValidMfaCode(code)).toBe(ok));
});

describe('sanitiser', () => {
  it('CONST-06: removes ` ~ " \' ? < >', () => expect(sanitise('a`~"\'?<>b')).toBe('ab'));
  it('CONST-07: keeps commas unless disable_comma', () => {
    expect(sanitise('a,b')).toBe('a,b');
    expect(sanitise('a,b', { disable_comma: true })).toBe('ab');
  });
  it('CONST-08: truncates to 20 by default', () => {
    expect(sanitise('abcdefghijklmnopqrstuvwxy')).toBe('abcdefghijklmnopqrst');
    expect(sanitise(LONG)).toHaveLength(20);
  });
  it('respects maxLength and does not split surrogate pairs', () => {
    expect(sanitise('abcdef', { maxLength: 3 })).toBe('abc');
    expect(sanitise('😀😀😀', { maxLength: 2 })).toBe('😀😀');
  });
  it.each([
    ['', ''],
    ['__proto__', '__proto__'],
    ['<script>', 'script'],
  ])('sanitise(%s) -> %s', (a, b) => {
    expect(sanitise(a)).toBe(b);
  });
  it('DLG-14 and DLG-02: display text is sanitised and cut at 15', () => {
    expect(sanitiseDisplayText('a"b')).toBe('ab');
    expect(sanitiseDisplayText('abcdefghijklmnopq')).toBe('abcdefghijklmno');
    expect(sanitiseDisplayText(null)).toBe('');
  });
});

describe('group and view names', () => {
  it.each([
    ['Fleet', { ok: true, value: 'Fleet' }],
    ['  Fleet  ', { ok: true, value: 'Fleet' }],
    ['Fl"eet<>', { ok: true, value: 'Fleet' }],
    ['', { ok: false, error: GROUP_NAME_REQUIRED }],
    ['   ', { ok: false, error: GROUP_NAME_REQUIRED }],
    ['"?<>', { ok: false, error: GROUP_NAME_REQUIRED }],
    [null, { ok: false, error: GROUP_NAME_REQUIRED }],
    [undefined, { ok: false, error: GROUP_NAME_REQUIRED }],
    ['__proto__', { ok: true, value: '__proto__' }],
  ])('validateGroupName(%j)', (input, out) => expect(validateGroupName(input)).toEqual(out));

  it('the message is verbatim', () => expect(GROUP_NAME_REQUIRED).toBe('Group name is required'));
  it('long group names are cut at 20', () =>
    expect(validateGroupName(LONG)).toEqual({ ok: true, value: 'x'.repeat(20) }));

  it.each([
    [0, 'View 1'],
    [2, 'View 3'],
    [9, 'View 10'],
    [-1, 'View 1'],
    [Number.NaN, 'View 1'],
  ])('VIEW-06 defaultViewName(%d) -> %s', (n, name) => expect(defaultViewName(n)).toBe(name));

  it.each([
    ['', 2, 'View 3'],
    ['   ', 0, 'View 1'],
    [null, 4, 'View 5'],
    ['Trucks', 2, 'Trucks'],
  ])('viewNameOrDefault(%j, %d) -> %s', (name, n, out) => expect(viewNameOrDefault(name, n)).toBe(out));
});

describe('sort order', () => {
  it.each<[unknown, number]>([
    [1, 1],
    [100, 100],
    ['42', 42],
    [' 7 ', 7],
    [0, DEFAULT_SORT_ORDER],
    [101, DEFAULT_SORT_ORDER],
    ['0', DEFAULT_SORT_ORDER],
    ['101', DEFAULT_SORT_ORDER],
    ['abc', DEFAULT_SORT_ORDER],
    ['x', DEFAULT_SORT_ORDER],
    ['7.5', DEFAULT_SORT_ORDER],
    [7.5, DEFAULT_SORT_ORDER],
    ['1e1', DEFAULT_SORT_ORDER],
    ['-5', DEFAULT_SORT_ORDER],
    ['', DEFAULT_SORT_ORDER],
    [null, DEFAULT_SORT_ORDER],
    [undefined, DEFAULT_SORT_ORDER],
    [Number.NaN, DEFAULT_SORT_ORDER],
    [Number.POSITIVE_INFINITY, DEFAULT_SORT_ORDER],
    ['__proto__', DEFAULT_SORT_ORDER],
    [LONG, DEFAULT_SORT_ORDER],
  ])('parseSortOrder(%j) -> %d', (input, out) => expect(parseSortOrder(input)).toBe(out));

  it('the default is 50 and a fallback can be given', () => {
    expect(DEFAULT_SORT_ORDER).toBe(50);
    expect(parseSortOrder('abc', 1)).toBe(1);
  });
});

describe('custom pages and settings', () => {
  it.each([
    ['vibracorder', 'vibracorder'],
    ['my page!', 'mypage'],
    ['../../etc', 'etc'],
    ['a-b_c', 'ab_c'],
    ['', ''],
    [null, ''],
  ])('customPageName(%j) -> %s', (input, out) => expect(customPageName(input)).toBe(out));

  it.each<[string, unknown, string | null]>([
    ['num1', '12', null],
    ['num1', '-1.5', null],
    ['num1', ' 3 ', null],
    ['num1', 7, null],
    ['numLimit', '1e3', null],
    ['num1', '', 'The value entered for num1 is not a number.'],
    ['num1', '   ', 'The value entered for num1 is not a number.'],
    ['num1', 'abc', 'The value entered for num1 is not a number.'],
    ['num1', '0x10', 'The value entered for num1 is not a number.'],
    ['num1', 'Infinity', 'The value entered for num1 is not a number.'],
    ['num1', null, 'The value entered for num1 is not a number.'],
    ['num1', Number.NaN, 'The value entered for num1 is not a number.'],
    ['str1', 'abc', null],
    ['str1', '', null],
  ])('customSettingError(%s, %j) -> %s', (name, value, out) => expect(customSettingError(name, value)).toBe(out));

  it('isNumericText rejects very long junk', () => expect(isNumericText(LONG)).toBe(false));
});

describe('decimal places', () => {
  it.each<[unknown, number]>([
    [-1, 0],
    [0, 0],
    [3, 3],
    [8, 8],
    [12, 8],
    ['4', 4],
    [2.7, 2],
    ['x', 0],
    [null, 0],
    [Number.NaN, 0],
  ])('DLG-03 clampDecimalPlaces(%j) -> %d', (dp, out) => expect(clampDecimalPlaces(dp)).toBe(out));
  it.each<[unknown, number]>([
    [-1, 0],
    [5, 5],
    [6, 5],
    [99, 5],
    ['2', 2],
    [undefined, 0],
  ])('headline dp clampHeadlineDecimalPlaces(%j) -> %d', (dp, out) => expect(clampHeadlineDecimalPlaces(dp)).toBe(out));
  it('clampInteger handles infinities', () => {
    expect(clampInteger(Number.POSITIVE_INFINITY, 0, 8)).toBe(8);
    expect(clampInteger(Number.NEGATIVE_INFINITY, 0, 8)).toBe(0);
    expect(clampInteger('', 0, 8, 3)).toBe(3);
  });
});

describe('device name editing', () => {
  it.each<[unknown, boolean]>([
    ['0-abc', true],
    ['0-', true],
    ['AB12CD34E', false],
    ['00ABCDEFG', false],
    ['', false],
    [null, false],
    ['__proto__', false],
  ])('CARD-07 isDeviceNameEditable(%j) -> %s', (id, ok) => expect(isDeviceNameEditable(id)).toBe(ok));
});

describe('images', () => {
  it('the limit is 300 kB and the message verbatim', () => {
    expect(IMAGE_MAX_BYTES).toBe(307_200);
    expect(IMAGE_TOO_LARGE_MESSAGE).toBe('Image too large. (300 kB limit)');
  });
  it.each<[number, string, string | null]>([
    [300 * 1024, 'image/jpeg', null],
    [1, 'image/png', null],
    [0, 'image/png', null],
    [301 * 1024, 'image/jpeg', IMAGE_TOO_LARGE_MESSAGE],
    [300 * 1024 + 1, 'image/png', IMAGE_TOO_LARGE_MESSAGE],
    [-1, 'image/png', IMAGE_TOO_LARGE_MESSAGE],
    [Number.NaN, 'image/png', IMAGE_TOO_LARGE_MESSAGE],
    [10, 'image/gif', IMAGE_TYPE_MESSAGE],
    [10, 'image/svg+xml', IMAGE_TYPE_MESSAGE],
    [10, '', IMAGE_TYPE_MESSAGE],
    [10, '__proto__', IMAGE_TYPE_MESSAGE],
  ])('imageError(%d, %s) -> %s', (size, type, out) => expect(imageError({ size, type })).toBe(out));
});

describe('view range', () => {
  it.each<[number | Date | null | undefined, number | Date | null | undefined, string | null]>([
    [1, 2, null],
    [new Date('2026-01-01'), new Date('2026-01-02'), null],
    [2, 2, INVALID_DATE_RANGE],
    [3, 2, INVALID_DATE_RANGE],
    [null, 2, INVALID_DATE_RANGE],
    [1, undefined, INVALID_DATE_RANGE],
    [Number.NaN, 2, INVALID_DATE_RANGE],
    [new Date('nope'), new Date('2026-01-02'), INVALID_DATE_RANGE],
  ])('dateRangeError(%s, %s) -> %s', (from, to, out) => expect(dateRangeError(from, to)).toBe(out));
  it('message is verbatim', () => expect(INVALID_DATE_RANGE).toBe('Invalid date range'));
});

describe('imageUploadError (device notes images)', () => {
  const base64 = (bytes: Uint8Array) => {
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary);
  };
  const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const png = (size: number) => {
    const raw = new Uint8Array(size);
    raw.set(PNG_SIGNATURE.slice(0, size));
    return base64(raw);
  };
  const jpeg = base64(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]));

  it('accepts a png or jpeg of at most 300 kB whose bytes are that type', () => {
    expect(imageUploadError('image/png', png(8))).toBeNull();
    expect(imageUploadError('image/png', png(1000))).toBeNull();
    expect(imageUploadError('image/png', png(IMAGE_MAX_BYTES))).toBeNull();
    expect(imageUploadError('image/png', png(IMAGE_MAX_BYTES - 1))).toBeNull();
    expect(imageUploadError('image/jpeg', jpeg)).toBeNull();
    expect(png(IMAGE_MAX_BYTES)).toHaveLength(IMAGE_MAX_BASE64);
  });

  it("refuses one over 300 kB with 'Image too large. (300 kB limit)'", () => {
    expect(imageUploadError('image/png', png(IMAGE_MAX_BYTES + 1))).toBe(IMAGE_TOO_LARGE_MESSAGE);
    expect(
      NotesImagePutBodySchema.safeParse({ contentType: 'image/png', dataBase64: png(IMAGE_MAX_BYTES + 3) }).error
        ?.issues,
    ).toEqual([{ code: 'custom', path: [], message: IMAGE_TOO_LARGE_MESSAGE }]);
  });

  it.each<[string, string]>([
    ['image/gif', base64(new TextEncoder().encode('GIF89a'))],
    ['image/svg+xml', base64(new TextEncoder().encode('<svg/>'))],
    ['image/png', jpeg],
    ['image/jpeg', png(100)],
    ['image/png', png(7)],
    ['image/png', ''],
    ['image/jpeg', base64(new Uint8Array([0xff, 0xd8]))],
    ['', png(100)],
    ['__proto__', png(100)],
    ['IMAGE/PNG', png(100)],
    ['image/png; charset=utf-8', png(100)],
  ])('refuses %s with %j as not a png or jpeg', (type, data) => {
    expect(imageUploadError(type, data)).toBe(IMAGE_TYPE_MESSAGE);
  });

  it.each(['iVBORw0KGgo', 'iVBORw0KGgo"onerror=x', 'iVBORw0K Ggo=', 'iVBORw0KGgo=====', 'iVBORw0KGgo-_=='])(
    'refuses %j as not base64',
    (data) => expect(imageUploadError('image/png', data)).toBe(IMAGE_NOT_BASE64_MESSAGE),
  );

  it('the settings change refuses images: the notes-image calls own them', () => {
    for (const images of [null, {}, { asset_image: null }, { asset_image: `data:image/png;base64,${png(10)}` }]) {
      const issues = DeviceNotesSchema.safeParse({ images }).error?.issues;
      expect(issues?.[0]).toMatchObject({ path: ['images'], message: NOTES_IMAGES_READ_ONLY_MESSAGE });
    }
    expect(DeviceNotesSchema.safeParse({ make: 'Acme' }).success).toBe(true);
  });

  it('notesImagePath is the address the server serves, versioned by the upload time', () => {
    expect(notesImagePath('AB12CD34E', 'asset_image', 1_700_000_000_123)).toBe(
      '/api/device/AB12CD34E/notes-image/asset_image?v=1700000000123',
    );
    expect(notesImagePath('a/b?c', 'brand_image', 1)).toBe('/api/device/a%2Fb%3Fc/notes-image/brand_image?v=1');
    expect(NOTES_IMAGE_SLOTS).toEqual(['asset_image', 'brand_image']);
  });
});
