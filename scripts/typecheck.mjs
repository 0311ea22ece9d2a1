// `npm run typecheck`: every TypeScript project (scripts/checks.mjs), one per core at a time.
import { runChecks, TYPECHECKS } from './checks.mjs';

const results = await runChecks(TYPECHECKS);
process.exit(results.every((r) => r.ok) ? 0 : 1);
