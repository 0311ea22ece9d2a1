import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import ts from 'typescript';

const API_PROXY = { '/api': { target: 'http://localhost:8080', changeOrigin: false } };

/**
 * PrimeReact's Lara theme hard-codes its blue; this rewrites those colours into the brand
 * tokens each brand's style sheet defines (--brand-primary and friends), swaps the theme's
 * Inter web font for the system font stack, and drops the font files it would otherwise ship.
 */
function brandTokensInPrimeTheme(): Plugin {
  const swaps: Array<[RegExp, string | ((match: string, alpha: string) => string)]> = [
    [/#3b82f6\b/gi, 'var(--brand-primary)'],
    [/#2563eb\b/gi, 'var(--brand-primary-hover)'],
    [/#1d4ed8\b/gi, 'var(--brand-primary-strong)'],
    [/#bfdbfe\b/gi, 'var(--brand-focus)'],
    [/#eff6ff\b/gi, 'var(--brand-primary-soft)'],
    [
      /rgba\(59, 130, 246, ([\d.]+)\)/g,
      (_match, alpha) => `color-mix(in srgb, var(--brand-primary) ${Math.round(Number(alpha) * 100)}%, transparent)`,
    ],
    [/@font-face\s*{[^}]*}/g, ''],
    [/"Inter var", sans-serif/g, 'var(--font-sans)'],
    [/(--)?font-feature-settings: "cv02", "cv03", "cv04", "cv11";/g, ''],
  ];
  return {
    name: 'portal:brand-tokens-in-prime-theme',
    enforce: 'pre',
    transform(code, id) {
      if (!/primereact\/resources\/themes\/lara-light-blue\/theme\.css/.test(id)) return null;
      let out = code;
      for (const [pattern, replacement] of swaps) {
        out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * Core defines its Zod contracts and tables at module level (`export const XSchema = z.object(...)`,
 * catalogues built with `.map` or `new Set`). A bundler must assume such calls have side effects,
 * so any import from core (one barrel) would pin them all, and all of Zod, into the entry chunk,
 * although a page uses a few. Core is side-effect free by design (STYLE.md), so for the browser
 * build each top-level initializer that calls something is wrapped in a pure-annotated IIFE: same
 * value, same order, but dropped (or left to the lazy chunk that uses it) when the entry does not use it.
 */
function pureCoreSchemas(): Plugin {
  const coreSource = /\/packages\/core\/src\/.*\.ts$/;
  /** An initializer that calls or constructs something outside a function of its own. */
  const calls = (node: ts.Node): boolean =>
    ts.isCallExpression(node) ||
    ts.isNewExpression(node) ||
    ts.isTaggedTemplateExpression(node) ||
    (!ts.isFunctionLike(node) && ts.forEachChild(node, calls) === true);
  return {
    name: 'portal:pure-core-schemas',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!coreSource.test(id)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const edits: Array<{ start: number; end: number }> = [];
      for (const statement of file.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          if (init && !ts.isFunctionLike(init) && calls(init))
            edits.push({ start: init.getStart(file), end: init.getEnd() });
        }
      }
      if (edits.length === 0) return null;
      let out = code;
      for (const { start, end } of edits.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/**
 * The icon font (primeicons, imported by main.tsx) is otherwise requested only once the app has
 * rendered an icon, after its script has run; a preload link in index.html fetches it with the
 * page, so the icons are usually there at first paint. The woff2 file only: every browser the
 * app supports takes it, and it is the file the style sheet's src list gives them.
 */
function preloadIconFont(): Plugin {
  let base = '/';
  return {
    name: 'portal:preload-icon-font',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const font = Object.values(bundle ?? {}).find(
          (file) => file.type === 'asset' && /(?:^|\/)primeicons-[\w-]+\.woff2$/.test(file.fileName),
        );
        if (!font) throw new Error('preloadIconFont: the build emitted no primeicons .woff2 file');
        return [
          {
            tag: 'link',
            attrs: {
              rel: 'preload',
              href: `${base}${font.fileName}`,
              as: 'font',
              type: 'font/woff2',
              crossorigin: true,
            },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/** The lazy route chunks of the staff pages (apps/web/src/app/routes/{staff,prov,packing}-*.tsx). */
const STAFF_ROUTE_CHUNK =
  /(?:^|\/)(?:staff-(?:admin|tools|stats)-route|prov-route|prov-device-route|packing-route)-[\w-]+\.js$/;

export default defineConfig({
  plugins: [
    react(),
    brandTokensInPrimeTheme(),
    pureCoreSchemas(),
    preloadIconFont(),
    // A brotli (.br) and a gzip (.gz) copy of each text file over 1 kB, built and public alike, that
    // the server sends by Accept-Encoding (apps/server/src/plugins/static.ts): compressed once, at
    // the highest levels (brotli 11, gzip 9), never per request. A copy no smaller is not written.
    compression({
      include: /\.(?:html|js|mjs|css|svg|json|txt|xml|map|webmanifest)$/,
      exclude: /(?:^|\/)\.vite\//,
      threshold: 1024,
      algorithms: ['brotliCompress', 'gzip'],
    }),
  ],
  resolve: {
    alias: { '@': new URL('./src', import.meta.url).pathname },
  },
  server: { proxy: API_PROXY },
  preview: { proxy: API_PROXY },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    modulePreload: {
      // <link rel="modulepreload"> is native in every browser the portal supports (Chrome 66,
      // Firefox 115, Safari 17): no polyfill in the entry.
      polyfill: false,
      // The staff pages (provisioning, packing, admin, tools, statistics) load their chunks as
      // they import them, without a preload list in the entry: every visitor's entry would carry
      // the lists and chunk names of pages only staff open (the sign-in route's 150 kB budget).
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' && STAFF_ROUTE_CHUNK.test(_file) ? [] : deps,
    },
  },
});
