/**
 * Zod jitless, before any schema exists. Building its first object schema, Zod probes whether it
 * may compile parsers with `new Function`; the content security policy (script-src 'self', no
 * 'unsafe-eval') refuses that and the browser reports a violation. Jitless, Zod neither probes nor
 * compiles. Core makes its schemas at module level, in whichever lazy chunk uses them, so the
 * setting goes where every copy of Zod reads it, before any loads: its global config object
 * (Zod's own documented way to configure it before import), here, in main.tsx's first import. No
 * Zod code comes with it: the entry stays free of Zod.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;
