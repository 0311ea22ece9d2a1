// Types of stale.mjs (run by plain Node, imported by the server's tests).
export interface NewestFile {
  path: string;
  mtimeMs: number;
}
export function newestFile(inputs: readonly string[]): NewestFile | null;
export function whyStale(output: string, inputs: readonly string[], root?: string): string | null;
