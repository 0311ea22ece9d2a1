/**
 * The colours a widget draws with where its settings name none, as #rrggbb for a colour field's
 * swatch (ColourField's `automatic`): read from the theme's custom properties, as the drawings
 * read them (the shared chart's ink is --text-muted, a card's ground --surface, a headline's
 * trend text --text).
 */
import { colourHex } from './fields';

/** A theme colour (a custom property of the document's root) as #rrggbb, else `fallback`. */
export function themeColour(property: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return colourHex(getComputedStyle(document.documentElement).getPropertyValue(property).trim()) ?? fallback;
}

/** The chart's axis, label and data label colour where none is set (chart-plot's ink). */
export const chartInk = () => themeColour('--text-muted', '#59636e');
/** What shows behind a chart without a background colour: its card's ground. */
export const chartGround = () => themeColour('--surface', '#ffffff');
/** A headline's trend arrow without a trend colour: the trend text's colour. */
export const trendInk = () => themeColour('--text', '#1f2937');
