// Types of restart-policy.mjs (run by plain Node, imported by the server's tests).
export const EX_CONFIG: 78;
export interface Backoff {
  firstMs: number;
  maxMs: number;
  stableMs: number;
}
export const BACKOFF: Backoff;
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  uptimeMs: number;
}
export interface SupervisorState {
  stopping: boolean;
  everReady: boolean;
  failures: number;
}
export type NextStep = { action: 'stop'; code: number } | { action: 'restart'; delayMs: number; failures: number };
export function describeExit(exit: Pick<ChildExit, 'code' | 'signal'>): string;
export function afterExit(exit: ChildExit, state: SupervisorState, backoff?: Backoff): NextStep;
