/**
 * Edit mode on a group dashboard in Chromium against the real server and the built app (issue 13):
 * dragging a headline tile across the grid and resizing the chart by its corner with the mouse, on
 * a dashboard of the device table, the map, 4 headlines and a 15-series chart over a group of
 * BENCH_GROUP_DEVICES devices (10,000 by default, home-map's fleet). Measured while the pointer
 * moves (press to release): the longest frame (the longest gap between two requestAnimationFrame
 * callbacks, and any 'long-animation-frame' entry), target none over 50 ms, and the longest task
 * ('longtask'); and for reference the same from the release until the saved view has answered and
 * been drawn. Medians of 3 runs after a warm-up, each in a fresh context.
 */
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_VIEW, type ViewSaveResponse } from '@portal/core';
import { launchBrowser } from '../../e2e/src/browser';
import { drawnAt, makeFleet, signedInContext, startPortalWithWeb } from './home-map';
import type { BenchResult } from './run';
import { median } from './stats';
import { progress } from './telemetry-kit';

const DEVICES = Number(process.env.BENCH_GROUP_DEVICES ?? 10_000);
const RUNS = 3;
const TARGET_FRAME_MS = 50;
/** Pointer moves per gesture (Playwright's steps; each a mousemove event). */
const MOVE_STEPS = 40;

/** The page's globals used by the functions run in the page (this package has no DOM types). */
declare const window: {
  __frames: { running: boolean; last: number; longest: number };
  __longTasks: { start: number; duration: number }[];
  __loaf: { start: number; duration: number }[];
  __startFrames(): number;
};

/**
 * Records long animation frames from the start; `__startFrames` starts the gap recorder per
 * gesture. As a string: the page's PerformanceObserver knows 'long-animation-frame', and functions
 * passed to evaluate must not name inner functions (tsx adds a helper the page lacks).
 */
const FRAME_RECORDER = `window.__loaf = [];
  window.__frames = { running: false, last: 0, longest: 0 };
  window.__startFrames = () => {
    const f = window.__frames;
    f.running = true;
    f.longest = 0;
    f.last = performance.now();
    const tick = (t) => {
      if (!f.running) return;
      f.longest = Math.max(f.longest, t - f.last);
      f.last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return f.last;
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__loaf.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}`;

const at = (x: number, y: number, w: number, h: number, minW: number, minH: number) => ({ x, y, w, h, minW, minH });
/** The same place at every breakpoint, clipped to the columns (12, 6, 4). */
const everywhere = (x: number, y: number, w: number, h: number, minW: number, minH: number) => ({
  lg: at(x, y, w, h, minW, minH),
  md: at(Math.min(x, 6 - Math.min(w, 6)), y, Math.min(w, 6), h, Math.min(minW, 6), minH),
  sm: at(Math.min(x, 4 - Math.min(w, 4)), y, Math.min(w, 4), h, Math.min(minW, 4), minH),
});

/** Table, map, 4 headlines and a 15-series chart of `sources` (device ids), keys batt. */
function dashboard(sources: string[]) {
  const table = DEFAULT_VIEW.widgets.widget1;
  return {
    widget1: { type: 'table', settings: table?.settings ?? {}, layouts: everywhere(0, 0, 12, 10, 12, 10) },
    widget2: { type: 'map', settings: {}, layouts: everywhere(0, 10, 12, 10, 4, 6) },
    widget3: { type: 'headline', settings: { key: 'batt', operator: 'avg' }, layouts: everywhere(0, 20, 3, 4, 2, 3) },
    widget4: { type: 'headline', settings: { key: 'batt', operator: 'max' }, layouts: everywhere(3, 20, 3, 4, 2, 3) },
    widget5: { type: 'headline', settings: { key: 'batt', operator: 'min' }, layouts: everywhere(6, 20, 3, 4, 2, 3) },
    widget6: {
      type: 'headline',
      settings: { key: 'batt', operator: 'latest' },
      layouts: everywhere(9, 20, 3, 4, 2, 3),
    },
    widget7: {
      type: 'chart',
      settings: { name: 'Batteries', series: sources.map((source) => ({ source, key: 'batt' })) },
      layouts: everywhere(0, 24, 8, 9, 3, 6),
    },
  };
}

/** Starts recording the longest gap between animation frames; answers the page time it started. */
function startFrames(page: Page): Promise<number> {
  return page.evaluate(() => window.__startFrames());
}

/** Stops the recorder: the longest frame (rAF gap or long animation frame) and the longest task since `from`. */
function stopFrames(page: Page, from: number): Promise<{ frame: number; task: number }> {
  return page.evaluate((since) => {
    window.__frames.running = false;
    const loaf = window.__loaf.filter((e) => e.start >= since).map((e) => e.duration);
    const tasks = window.__longTasks.filter((e) => e.start >= since).map((e) => e.duration);
    return { frame: Math.max(window.__frames.longest, 0, ...loaf), task: Math.max(0, ...tasks) };
  }, from);
}

interface Phases {
  /** From the press to the release: the grid following the pointer. */
  moving: { frame: number; task: number };
  /** From the release until the saved view has answered and been drawn (500 ms after). */
  settling: { frame: number; task: number };
}

/** Presses on `selector`'s centre, moves by (dx, dy) in MOVE_STEPS, releases; waits for the save. */
async function gesture(page: Page, selector: string, dx: number, dy: number): Promise<Phases> {
  const target = page.locator(selector);
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await target.boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  const x = box.x + Math.min(box.width / 2, 40);
  const y = box.y + box.height / 2;
  const saved = page.waitForResponse((r) => r.url().endsWith('/view') && r.request().method() === 'PUT', {
    timeout: 60_000,
  });
  // Awaited below; a failure before then must not leave it rejecting unheard.
  saved.catch(() => undefined);
  await page.mouse.move(x, y);
  const from = await startFrames(page);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: MOVE_STEPS });
  const moving = await stopFrames(page, from);
  const released = await startFrames(page);
  await page.mouse.up();
  const answer = await saved;
  if (answer.status() !== 200) throw new Error(`the save answered ${answer.status()}`);
  // The frames after the answer: the grid drawn from the saved view.
  await page.waitForTimeout(500);
  return { moving, settling: await stopFrames(page, released) };
}

export async function dashboardEdit(): Promise<BenchResult[]> {
  const bp = await startPortalWithWeb();
  let browser: Browser | null = null;
  const series = () => ({
    frame: [] as number[],
    task: [] as number[],
    settleFrame: [] as number[],
    settleTask: [] as number[],
  });
  const drag = series();
  const resize = series();
  const keep = (into: ReturnType<typeof series>, phases: Phases) => {
    into.frame.push(phases.moving.frame);
    into.task.push(phases.moving.task);
    into.settleFrame.push(phases.settling.frame);
    into.settleTask.push(phases.settling.task);
  };
  const said = (p: Phases) =>
    `longest frame ${Math.round(p.moving.frame)} ms (task ${Math.round(p.moving.task)}), after the drop ${Math.round(p.settling.frame)} ms (task ${Math.round(p.settling.task)})`;
  try {
    const fleet = await makeFleet(bp, DEVICES);
    const sources = await bp.portal.db.query<{ device_id: string }>(
      'SELECT device_id FROM group_devices WHERE groupid = $1 ORDER BY device_id LIMIT 15',
      [fleet.groupid],
    );
    browser = await launchBrowser();
    const base = `http://127.0.0.1:${bp.portal.port}`;

    for (let i = 0; i <= RUNS; i += 1) {
      const context = await signedInContext(browser, base, fleet);
      await context.addInitScript({ content: FRAME_RECORDER });
      // A view of its own per run, so each run starts from the same layout.
      const made = await context.request.put(`${base}/api/group/${fleet.groupid}/view`, {
        headers: { 'x-requested-with': 'portal' },
        data: {
          view: {
            name: `Edit ${i}`,
            sortOrder: 10 + i,
            timeRange: DEFAULT_VIEW.timeRange,
            widgets: dashboard(sources.map((r) => r.device_id)),
          },
        },
      });
      if (made.status() !== 200) throw new Error(`view not made: ${made.status()} ${await made.text()}`);
      const view = ((await made.json()) as ViewSaveResponse).view;
      const page = await context.newPage();
      page.on('crash', () => progress('dashboard-edit: the page crashed'));
      page.on('pageerror', (error) => progress(`dashboard-edit: page error ${error.message}`));
      await page.goto(`${base}/group/${fleet.groupid}/${view.viewid}`, { waitUntil: 'commit' });
      await drawnAt(page);
      await page.getByRole('button', { name: 'Edit Widgets' }).click();
      await page.locator('.widget-edit-bar').first().waitFor();
      const grid = await page.locator('.dashboard-grid').boundingBox();
      const col = ((grid?.width ?? 1232) + 16) / 12;
      // The first headline: three columns right and seven rows down (into the chart), by its bar.
      const dragged = await gesture(page, '[data-widget-id="widget3"] .widget-edit-bar__drag', 3 * col, 7 * 46.8);
      // The chart: two columns wider and four rows taller, by its corner.
      const resized = await gesture(page, '[data-widget-id="widget7"] > .react-resizable-handle', 2 * col, 4 * 46.8);
      if (i > 0) {
        keep(drag, dragged);
        keep(resize, resized);
      }
      progress(`dashboard-edit run ${i}${i === 0 ? ' (warm-up)' : ''}: drag ${said(dragged)}; resize ${said(resized)}`);
      await context.close();
    }
  } finally {
    await browser?.close();
    await bp.close();
  }
  const result = (name: string, values: number[], target?: number): BenchResult => ({
    name,
    value: Math.round(median(values)),
    unit: 'ms',
    better: 'lower',
    ...(target === undefined ? {} : { target }),
    runs: values.map(Math.round),
  });
  return [
    result('dashboard-edit-drag-longest-frame-ms', drag.frame, TARGET_FRAME_MS),
    result('dashboard-edit-resize-longest-frame-ms', resize.frame, TARGET_FRAME_MS),
    result('dashboard-edit-drag-longest-task-ms', drag.task),
    result('dashboard-edit-resize-longest-task-ms', resize.task),
    result('dashboard-edit-drop-saved-longest-frame-ms', drag.settleFrame),
    result('dashboard-edit-drop-saved-longest-task-ms', drag.settleTask),
    result('dashboard-edit-resize-saved-longest-frame-ms', resize.settleFrame),
    result('dashboard-edit-resize-saved-longest-task-ms', resize.settleTask),
  ];
}
