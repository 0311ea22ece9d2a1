/**
 * The user guide behind every brand's Docs link: one Markdown source (docs/user-guide.md), rendered
 * for the brand of the host it is opened on. `{brand}` is the brand's name; a block between
 * `<!-- if:FLAG -->` and `<!-- end -->` stays only where the flag holds (see the source's header).
 */
import { readFileSync } from 'node:fs';
import { Marked } from 'marked';
import type { BrandConfig } from '@portal/core';

export const USER_GUIDE_SOURCE = new URL('../../../../../docs/user-guide.md', import.meta.url);

const CONDITIONAL = /<!-- if:([a-z=-]+) -->([\s\S]*?)<!-- end -->/g;
const COMMENT = /<!--[\s\S]*?-->\n?/g;
/** `## Title {#anchor}`: a heading with a stable anchor for links such as a brand's docsLink. */
const ANCHORED_HEADING = /^(#{1,6}) (.+?) \{#([a-z0-9-]+)\}$/gm;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** True when the brand shows a block marked with this flag; an unknown flag hides its block. */
export function guideFlagHolds(flag: string, brand: BrandConfig): boolean {
  if (flag.startsWith('brand=')) return brand.id === flag.slice('brand='.length);
  if (flag === 'mfa') return brand.allowMFA;
  if (flag === 'api') return brand.allowAPI;
  if (flag === 'plans') return !brand.hidePlans;
  if (flag === 'marketing') return !brand.hideMarketingEmailSignup;
  if (flag === 'subbrand') return brand.allowSubBrand;
  return false;
}

/** The guide as a whole HTML page for one brand: contents list of its sections, then the sections. */
export function renderUserGuide(source: string, brand: BrandConfig): string {
  const name = escapeHtml(brand.name);
  const sections: Array<{ id: string; title: string }> = [];
  const markdown = source
    .replace(CONDITIONAL, (_all, flag: string, body: string) => (guideFlagHolds(flag, brand) ? body : ''))
    .replace(COMMENT, '')
    .replaceAll('{brand}', name)
    .replace(ANCHORED_HEADING, (_all, hashes: string, title: string, id: string) => {
      if (hashes.length === 2) sections.push({ id, title });
      return `<h${hashes.length} id="${id}">${escapeHtml(title)}</h${hashes.length}>`;
    });
  const body = new Marked({ gfm: true }).parse(markdown, { async: false });
  const contents = sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join('');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${name} user guide</title>`,
    '<link rel="stylesheet" href="/static-page.css" />',
    '</head>',
    '<body>',
    '<main>',
    body.replace('<h2', `<nav class="toc" aria-label="Contents"><ol>${contents}</ol></nav>\n<h2`),
    '</main>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** Reads the source once and keeps each brand's page. */
export function userGuidePages(source = readFileSync(USER_GUIDE_SOURCE, 'utf8')): (brand: BrandConfig) => string {
  const pages = new Map<string, string>();
  return (brand) => {
    let page = pages.get(brand.id);
    if (page === undefined) {
      page = renderUserGuide(source, brand);
      pages.set(brand.id, page);
    }
    return page;
  };
}
