// The gzip size (kB = 1000 bytes) of the JavaScript and CSS that Chromium loads for the sign-in route, read from
// the real built app served by the real server.
import { startStack } from '../../e2e/src/harness';
import { newPage } from '../../e2e/src/browser';
import type { BenchResult } from './run';
import { median } from './stats';
import { countLoadedBytes } from './page-bytes';

const RUNS = 3;

export async function signinBundle(): Promise<BenchResult[]> {
  const stack = await startStack();
  const js: number[] = [];
  const css: number[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const { context, page } = await newPage(stack.browser);
      const loaded = countLoadedBytes(page);
      await page.goto(stack.url('/login'), { waitUntil: 'networkidle' });
      await page.getByLabel('Password', { exact: true }).waitFor();
      const sizes = await loaded.total();
      js.push(sizes.js);
      css.push(sizes.css);
      await context.close();
    }
  } finally {
    await stack.close();
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return [
    {
      name: 'signin-route-js-gzip',
      value: round(median(js)),
      unit: 'kB',
      better: 'lower',
      ceiling: 150,
      runs: js.map(round),
    },
    { name: 'signin-route-css-gzip', value: round(median(css)), unit: 'kB', better: 'lower', runs: css.map(round) },
  ];
}
