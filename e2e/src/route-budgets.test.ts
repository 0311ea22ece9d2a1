// Byte budgets per route (issue 11), checked against the built web app (`npm test` builds it first;
// E2E_WEB_DIST names another build). Sizes are deterministic, so unlike a timing this is a fair test.
import { describe, expect, it } from 'vitest';
import { ROUTE_BUDGETS } from './route-budgets';
import { lazyRouteModules, readBuild } from './route-sizes';

describe('byte budgets per route', () => {
  const build = readBuild();

  it('every lazy route of routes.tsx has a budget, and every budget a route', () => {
    expect(ROUTE_BUDGETS.map((b) => b.module).sort()).toEqual([...new Set(lazyRouteModules())].sort());
  });

  it.each(ROUTE_BUDGETS)('$path ($module) stays within its budget', (budget) => {
    const size = build.sizeOf(budget.module, budget.alsoLoads);
    const over = (kind: 'JavaScript' | 'CSS', kb: number, limit: number) =>
      `${budget.path} (${budget.module}) loads ${kb} kB of ${kind} (gzip), ` +
      `${Math.round((kb - limit) * 10) / 10} kB over its budget of ${limit} kB in e2e/src/route-budgets.ts ` +
      `(build ${build.dist}; files: ${size.files.join(', ')})`;
    expect(size.js, over('JavaScript', size.js, budget.js)).toBeLessThanOrEqual(budget.js);
    expect(size.css, over('CSS', size.css, budget.css)).toBeLessThanOrEqual(budget.css);
  });
});
