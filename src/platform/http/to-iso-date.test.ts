import { describe, expect, it } from 'vitest';
import { toIsoDate } from './to-iso-date.js';

describe('toIsoDate', () => {
  it.each([
    ['2024-03-05T10:20:30Z', '2024-03-05T10:20:30.000Z'],
    ['2024-03-05T10:20:30+02:00', '2024-03-05T08:20:30.000Z'],
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['2024-03-05T10:20:30', '2024-03-05T10:20:30.000Z'],
    ['2024-03-05 10:20', '2024-03-05T10:20:00.000Z'],
    ['2024-03-05T10:20:30.123456', '2024-03-05T10:20:30.123Z'],
    ['Tue, 05 Mar 2024 10:20:30 GMT', '2024-03-05T10:20:30.000Z'],
    ['  2024-03-05T10:20:30Z  ', '2024-03-05T10:20:30.000Z'],
  ])('reads %s', (input, expected) => {
    expect(toIsoDate(input)).toBe(expected);
  });

  it.each([undefined, null, 42, '', '   ', 'yesterday', 'not a date', '+099999-01-01T00:00:00Z'])(
    'gives undefined for %s',
    (input) => {
      expect(toIsoDate(input)).toBeUndefined();
    },
  );
});
