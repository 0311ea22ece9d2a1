// Entry of the PGlite worker thread. Worker threads do not inherit the tsx loader, so it is
// registered here before the TypeScript worker module is imported.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
