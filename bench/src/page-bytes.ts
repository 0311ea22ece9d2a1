import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

/**
 * Counts the gzip size (kB = 1000 bytes) of every script and stylesheet a page loads from now on;
 * `total()` waits for the bodies counted so far.
 */
export function countLoadedBytes(page: Page): { total(): Promise<{ js: number; css: number }> } {
  const bytes = { js: 0, css: 0 };
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then((body) => {
        bytes[type === 'script' ? 'js' : 'css'] += gzipSync(body, { level: 9 }).length;
      }),
    );
  });
  return {
    async total() {
      await Promise.all(pending);
      return { js: bytes.js / 1000, css: bytes.css / 1000 };
    },
  };
}
