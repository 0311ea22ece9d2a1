/**
 * The API key a request runs under, as the access gate reads it: the bearer hooks
 * (modules/api-credentials/bearer.ts) run the rest of a request made with a key in its scope
 * (AsyncLocalStorage), and the gate refuses the devices whose plan has no API to it. Kept here so
 * the gate imports no other module.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What the gate needs of the API key a request was made with: whose key it is. */
export interface ScopedCredential {
  userId: string;
}

const scope = new AsyncLocalStorage<ScopedCredential>();

/** Runs `fn` (the rest of a request made with an API key) in the key's scope. */
export function runWithCredential(credential: ScopedCredential, fn: () => void): void {
  scope.run(credential, fn);
}

/** The API key the current request was made with (inside its handler), or undefined. */
export function currentApiCredential(): ScopedCredential | undefined {
  return scope.getStore();
}
