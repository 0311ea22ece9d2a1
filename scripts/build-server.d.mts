// Types of build-server.mjs (run by plain Node, imported by the server's tests).
export const SERVER_BUNDLE: string;
export function whyServerBuildIsStale(): string | null;
export function buildServer(): Promise<void>;
