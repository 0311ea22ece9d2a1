/**
 * The series colours of every chart (chart-options.ts draws with them; an editor's colour field
 * shows them as a series' automatic colour), in a module of its own so an editor can name them
 * without loading uPlot.
 */

/** Okabe-Ito, colour-blind safe (UI.md), without its yellow (too faint on white); cycled past 7 series. */
export const CHART_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000'];
