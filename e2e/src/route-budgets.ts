// Byte budgets per route of the web app (issue 11): the gzip size (level 9, kB = 1000 bytes) of the
// JavaScript and CSS that a first visit to the route loads, computed from the build's manifest by
// route-budgets.test.ts. The one place the budgets live: raise one only with a reason in the commit.

export interface RouteBudget {
  /** The route's lazy module in apps/web/src/app/routes.tsx (`import('./routes/<module>')`). */
  module: string;
  /** The route as a visitor sees it, for the failure message. */
  path: string;
  /** Budget for JavaScript, kB gzip. */
  js: number;
  /** Budget for CSS (the default brand's style sheet included), kB gzip. */
  css: number;
  /**
   * Lazy chunks (manifest keys, from apps/web) that a first visit loads as well, beyond the route
   * chunk's static imports: the device page draws its map card for any device that reports a
   * position, as the demo devices do.
   */
  alsoLoads?: readonly string[];
}

/**
 * Sign-in and the other signed-out routes: issue 2 accepted 150 kB, issue 11 holds it (issue 32:
 * /signup 149.8 kB, the entry chunk 0.25 kB larger for the brand overrides and the title helper).
 */
const SIGNED_OUT_JS = 150;

export const ROUTE_BUDGETS: readonly RouteBudget[] = [
  { module: 'login-route', path: '/login', js: SIGNED_OUT_JS, css: 30 },
  { module: 'signup-route', path: '/signup', js: SIGNED_OUT_JS, css: 30 },
  { module: 'reset-request-route', path: '/resetpassword', js: SIGNED_OUT_JS, css: 30 },
  { module: 'reset-complete-route', path: '/resetpassword/:code', js: SIGNED_OUT_JS, css: 30 },
  // The routes below: a little above their size when the budgets were set (issue 11).
  // /verify: 131 since issue 16 (130.1 kB: the entry's route table names the plans, billing and staff pages).
  { module: 'verify-route', path: '/verify/:code', js: 131, css: 30 },
  // The unsubscribe link of alert e-mails (issue 14): 129.2 kB JS and 27.5 kB CSS when set.
  { module: 'unsubscribe-route', path: '/unsubscribe/:token', js: 132, css: 30 },
  // 109.9 kB since issue 32 (the entry chunk, as SIGNED_OUT_JS).
  { module: 'fcc-route', path: '/fcc', js: 110, css: 30 },
  // /account: 162 since issue 16 (161.0 kB: the Invoices and API tabs).
  { module: 'account-route', path: '/account', js: 162, css: 30 },
  // /add: 176 since issue 13 (175.2 kB then); 178 since issue 14 (176.3 kB with its five new device
  // pages and the unsubscribe page): the entry's preload map grows with each lazy route; 179 since
  // issue 30 (178.1 kB: about 30 bytes, the hashed chunk names every chunk imports by, none of it code).
  { module: 'add-device-route', path: '/add', js: 179, css: 30 },
  // Group settings (issue 12): 187 kB when set, its tab view, dropdowns and dialogs included.
  { module: 'group-settings-route', path: '/group/:groupid/settings', js: 195, css: 30 },
  // Home, the group dashboard: issue 12's 350 kB, with its table and map widgets (Leaflet included),
  // which every group's default view shows.
  {
    module: 'home-route',
    path: '/',
    js: 350,
    css: 40,
    alsoLoads: [
      'src/features/group-table/components/group-table-widget.tsx',
      'src/features/group-map/components/group-map-widget.tsx',
      'src/features/group-map/components/leaflet-group-map.tsx',
    ],
  },
  // The widget editor (issue 13): 230 kB JS and 29.9 kB CSS when set, its three forms with
  // PrimeReact's dropdown, autocomplete, checkbox and dialog.
  // 242 since issue 14 (239.6 kB): the entry's preload map grew with issue 14's six new routes.
  // 244 since issue 15 (242.7 kB): the chart form's fields moved to a chunk shared with the custom
  // chart editor (components/form, components/chart), and the entry names issue 15's new routes.
  // 245 since issue 30 (244.2 kB: the devices contract's ranges of display-setting numbers and a device's brand).
  // 247 since issue 32 (245.6 kB: colour swatches showing the colour used, the chart form's series
  // first; the live preview itself is a lazy chunk, with each widget's code behind it).
  { module: 'widget-editor-route', path: '/group/:groupid/:viewid/editor/:widgetid', js: 247, css: 32 },
  // The Server Log page (issue 14): 199.1 kB JS and 29.6 kB CSS when set: the device header and
  // PrimeReact's dropdown.
  // /serverlog: 206 since issue 16 (205.7 kB: the plan rules' fixed-Basic tier and virtual device ids in shared chunks).
  // 207 since issue 30 (206.1 kB: the same devices contract, 122 bytes).
  // Issue 32: every device sub-page's header shows the contact status and last data as the Data page
  // does, about 4.5 kB gzip on each (date-fns' formatDistanceStrict 3.1 kB, shared with the Data page;
  // the small data call, the polling schedule, the status line); with issue 32's other changes the
  // sub-pages measured: /serverlog 212.3, /config 240.6, /users 224.9, /diag 189.2, /chart 278.7,
  // /script 382.5, /widget 219.7, /raw 305.6 kB, their budgets raised to fit.
  { module: 'server-log-route', path: '/serverlog/:deviceid', js: 213, css: 32 },
  // Issue 33 (one file, one job): core's display rules are three modules instead of one 788-line
  // file (resolve, format, the settings dialog's rules) and their UTF-8 and base64 are text-codecs.ts,
  // shared with the device config and scripts. Rollup makes each its own chunk, which costs 0.1 to
  // 0.8 kB gzip on the device sub-pages that load them (measured /config 241.8, /users 225.5,
  // /script 383.5, /widget 220.4, /raw 306.1, /data 336.8 kB); merging them back into one chunk
  // with manualChunks pulls zod into every route (+34 kB on sign-in). Those six budgets rose by 1 kB.
  // The Settings page (issue 14): 229.2 kB JS and 31.1 kB CSS when set (184.2 kB and 30.3 kB
  // without the admin settings, which a device's ADMIN loads as well).
  {
    module: 'config-route',
    path: '/config/:deviceid',
    js: 242,
    css: 33,
    alsoLoads: ['src/features/device-admin-settings/components/admin-settings.tsx'],
  },
  // The Users and Permissions page (issue 14): 213.8 kB JS and 30.0 kB CSS when set: the device
  // header, PrimeReact's dropdown, input and dialog.
  { module: 'users-route', path: '/users/:deviceid', js: 226, css: 32 },
  // The Diagnostics page (issue 14): 179.1 kB JS and 29.9 kB CSS when set: the device header and
  // its own tables, no data grid.
  { module: 'diag-route', path: '/diag/:deviceid', js: 190, css: 32 },
  // A device's chart page (issue 15): 268.9 kB JS and 32.5 kB CSS when set: the device header,
  // uPlot and the shared chart, the editor (PrimeReact's autocomplete, dropdown, checkbox, input)
  // and the confirmation dialog.
  { module: 'chart-route', path: '/chart/:deviceid/:chartid', js: 279, css: 35 },
  // The Scripting page (issue 15): 372.8 kB JS and 30.1 kB CSS when set: the device header, the
  // confirmation dialog and its lazy editor, CodeMirror 6 with JavaScript (174.7 kB of it, loaded by
  // no other route; 198.4 kB without it, as for a refusal or 'Firmware Update Required').
  {
    module: 'script-route',
    path: '/script/:deviceid',
    js: 384,
    css: 32,
    alsoLoads: ['src/features/device-script/components/script-editor.tsx'],
  },
  // The widget card page (issue 15): 211.9 kB JS and 31.9 kB CSS when set: the device header, the
  // card's drawing and editor (native inputs, PrimeReact's button and the confirmation dialog).
  { module: 'widget-route', path: '/widget/:deviceid/:widgetid', js: 221, css: 34 },
  // The Raw Data page (issue 14): 296 kB JS and 30.4 kB CSS when set: the device header and
  // PrimeReact's DataTable (the records), dialog, dropdown, radio buttons and progress bar.
  { module: 'raw-route', path: '/raw/:deviceid', js: 307, css: 33 },
  // The Support page (issue 15): 183.8 kB JS and 27.7 kB CSS when set: PrimeReact's input, text
  // area and message, and the device's settings call.
  { module: 'support-route', path: '/support/:deviceid', js: 190, css: 30 },
  // The provisioning and packing pages (issue 16): 207.6, 216.5 and 185.9 kB JS when set, PrimeReact's
  // inputs, dropdown and message; the batch mode's table and progress bar load when it is opened.
  { module: 'prov-route', path: '/sqprov', js: 214, css: 32 },
  { module: 'prov-device-route', path: '/sqprov/:deviceid', js: 222, css: 32 },
  { module: 'packing-route', path: '/sqpacking', js: 192, css: 32 },
  // Plans and subscriptions (issue 16): /plans 174.2 kB JS and 28.6 kB CSS when set (the billing
  // call, plain tables); /subscriptions 274.5 kB and 28.8 kB: PrimeReact's DataTable (selection),
  // dropdowns and the confirmation dialog.
  { module: 'plans-route', path: '/plans', js: 180, css: 31 },
  { module: 'subscriptions-route', path: '/subscriptions/:groupid', js: 282, css: 31 },
  // The custom pages (issue 15): 166.0 kB JS and 28.9 kB CSS when set: the vibracorder, the kiosk
  // and its device picker, the device's calls and polling, no chart library.
  { module: 'custom-route', path: '/custom/:homePage/:deviceid', js: 172, css: 31 },
  // The staff pages (issue 16), when set: /sqadmin 283.4 kB JS and 29.0 kB CSS (the search and a
  // device's dossier: PrimeReact's DataTable, dialog and text area), /sqtools 283.9 kB and 29.0 kB
  // (DataTable, dialog, dropdown, message), /sqstats 298.9 kB and 29.7 kB (DataTable and uPlot).
  { module: 'staff-admin-route', path: '/sqadmin/:deviceid', js: 290, css: 32 },
  { module: 'staff-tools-route', path: '/sqtools', js: 290, css: 32 },
  { module: 'staff-stats-route', path: '/sqstats', js: 305, css: 32 },
  // The device page: issue 11's 300 kB, its lazy map included. 336 since issue 15 (331.3 kB JS and
  // 42.4 kB CSS; 296.5 kB and 40.1 kB without its charts): the chart cards (34.8 kB with uPlot) load
  // after the readings, for every device reporting the working states' hour meters (utilisation).
  {
    module: 'data-route',
    path: '/data/:deviceid',
    js: 337,
    css: 44,
    alsoLoads: [
      'src/features/device-data/components/map-card.tsx',
      'src/features/device-chart/components/device-chart-cards.tsx',
    ],
  },
];
