import type { CSSProperties } from 'react';

/**
 * How many characters wide a reading's tile must hold (CSS `--chars`, which sizes the text to the
 * tile's width): its longest word, so a number is never broken or cut, and half its length, so a
 * reading of several words ('4,292 h 00 min') takes at most two lines.
 */
export function valueSizeStyle(text: string): CSSProperties {
  const longest = Math.max(...text.split(/\s+/).map((word) => word.length));
  return { '--chars': Math.max(3, longest, Math.ceil(text.length / 2)) } as CSSProperties;
}
