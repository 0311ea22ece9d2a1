/**
 * The catalogue of environment variables: each one's name, default and meaning, as the README's
 * configuration table prints it (`configTableMarkdown`, `npm run config-table -w apps/server`).
 * Parsing and validating them is config.ts's job.
 */
import {
  DEFAULT_BILLING_PROVIDER,
  DEFAULT_CURRENCY,
  DEFAULT_FIRMWARE_VERSIONS,
  DEFAULT_MAP_TILES,
  RECORD_LIMITS,
} from '@portal/core';

/** Where support requests go unless SUPPORT_EMAIL says otherwise. */
export const DEFAULT_SUPPORT_EMAIL = 'support@portal.local';

/** 256 kB: four times the largest record (RECORD_LIMITS.maxPayloadBytes); what one connection may make the server buffer of a packet. */
export const DEFAULT_MQTT_MAX_PACKET_BYTES = 262_144;
/** A 64 kB record's PUBLISH and its headers fit. */
export const MIN_MQTT_MAX_PACKET_BYTES = RECORD_LIMITS.maxPayloadBytes + 1024;

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every variable, its default and what it does (for the README). */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  { name: 'PORT', default: '8080', description: 'HTTP port of the portal (0 picks a free port).' },
  { name: 'HOST', default: '0.0.0.0', description: 'Address the HTTP server listens on.' },
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:{PORT}',
    description:
      "Public address of the portal (the default brand's), e.g. https://portal.example.com. Every link that leaves the portal (mails, label QR codes) starts with it, or with the brand's prefix before its host for a user's or device's brand (https://tank.portal.example.com), never with a request's Host header. Unset: links point at localhost, which no phone or other machine reaches; label downloads then warn.",
  },
  {
    name: 'DATA_DIR',
    default: './data',
    description:
      "Directory of the embedded database (files in DATA_DIR/pglite; 'memory://' keeps it in memory), and of the demo fleet's device keys (demo-fleet.json). The portal does not use it with DATABASE_URL; `npm run demo-fleet` still keeps its keys there.",
  },
  {
    name: 'DATABASE_URL',
    default: '(unset: embedded PGlite)',
    description: 'PostgreSQL connection string, e.g. postgres://user@host:5432/portal.',
  },
  {
    name: 'DB_STATEMENT_TIMEOUT_MS',
    default: '30000',
    description:
      "With DATABASE_URL: PostgreSQL's statement_timeout for the portal's connections; a statement running longer is stopped and its request answers 503 (migrations have none). 0 turns it off. The embedded PGlite cannot interrupt a statement: there, the bounds of each call (rows, buckets) must suffice.",
  },
  {
    name: 'SMTP_URL',
    default: '(unset: outbox)',
    description:
      'SMTP server for mail, e.g. smtp://user:pass@mail.example.com:587. Unset: mail is logged and kept in the outbox (GET /api/outbox, staff only).',
  },
  { name: 'MAIL_FROM', default: 'Portal <no-reply@portal.local>', description: 'Sender of every e-mail.' },
  {
    name: 'SUPPORT_EMAIL',
    default: DEFAULT_SUPPORT_EMAIL,
    description:
      "Where support requests go (the Support page, POST /api/support-request): one e-mail address; each request is mailed there with the sender's address as Reply-To.",
  },
  {
    name: 'PASSWORD_HASH_COST',
    default: 'standard',
    description:
      "scrypt's work factors for new password hashes. `test` (16 times cheaper) is for the test suite's throwaway accounts only: the portal refuses it unless NODE_ENV=test.",
  },
  { name: 'SEED_DEMO', default: 'true', description: 'Create the demo and staff accounts on start when missing.' },
  {
    name: 'LOG_LEVEL',
    default: 'info',
    description: 'pino log level: fatal, error, warn, info, debug, trace or silent.',
  },
  { name: 'WEB_DIST', default: 'apps/web/dist', description: 'Directory of the built web app served at /.' },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    description: 'Trust X-Forwarded-* headers: true, false, a hop count, or a comma-separated list of addresses/CIDRs.',
  },
  {
    name: 'BRAND_OVERRIDES',
    default: '{}',
    description:
      'JSON object of brand fields to override, keyed by brand id, e.g. {"tank":{"footerText":"..."}}. The server (mails, links) and the web app (written into index.html) both apply them.',
  },
  {
    name: 'BRAND_HOSTS',
    default: '{}',
    description:
      'JSON object of brand id -> origin for brands whose host is not a prefix of PUBLIC_URL, e.g. {"tank":"https://portal.tankco.example"}: that brand\'s links (mails, label QR codes) use this origin, and requests to its host are that brand. Known brand ids only; http(s) origins only (no path).',
  },
  {
    name: 'RATE_LIMIT_PER_MINUTE',
    default: '20',
    description:
      'Requests per minute per client address on each sign-up, reset and verification call; each sign-in call (password, MFA code) allows 120, or this many when higher.',
  },
  {
    name: 'REDIS_URL',
    default: '(unset: the database)',
    description:
      'Redis for the request-limit counters, e.g. redis://127.0.0.1:6379. Without it the counters live in the database; either way every instance shares them.',
  },
  {
    name: 'MQTT_PORT',
    default: '1883',
    description: 'Port of the embedded MQTT broker devices connect to (0 picks a free port). Unused with MQTT_URL.',
  },
  {
    name: 'MQTT_URL',
    default: '(unset: embedded broker)',
    description:
      'External MQTT broker, e.g. mqtt://broker:1883; the portal then subscribes with the shared subscription $share/portal/dev/+/data (and diag, ack) instead of running its own broker.',
  },
  {
    name: 'MQTT_DEVICE_AUTH',
    default: 'broker',
    description:
      "With MQTT_URL: who keeps the devices' broker accounts. `dynsec`: the portal creates each device's client (username = device id, password = its key) and a role allowing only its own topics in Mosquitto's dynamic security plugin, through $CONTROL/dynamic-security/v1 (the MQTT_URL user must be the plugin's admin; `npm run broker-sync` brings an existing broker in line). `broker`: the broker authenticates devices itself, e.g. by asking the portal (MQTT_AUTH_HOOK_SECRET).",
  },
  {
    name: 'MQTT_ALLOW_ANONYMOUS',
    default: 'false',
    description:
      'With MQTT_URL the portal refuses to start when a client without credentials can publish to dev/+/data at the broker (it tries once at start): any device could then be impersonated. `true` starts anyway (a broker on a closed network, tests).',
  },
  {
    name: 'INSTANCE_ID',
    default: '(unset: clean sessions)',
    description:
      "With MQTT_URL: this instance's name, unique among the instances and the same across its restarts (letters, digits, - and _, at most 40). Its subscriber connections then use persistent sessions with client ids portal-{INSTANCE_ID}-{n}, so a restart after a crash receives what the broker had sent and the instance had not acknowledged. Unset: clean sessions, and such messages are lost when an instance dies.",
  },
  {
    name: 'MQTT_AUTH_HOOK_SECRET',
    default: '(unset: no broker hooks)',
    description:
      "With MQTT_URL: a secret of 16-256 letters, digits, '-', '.', '_' or '~' (e.g. `openssl rand -hex 32`) that turns on the HTTP hooks an external broker asks who may connect, publish and subscribe (POST /api/mqtt-auth/...: mosquitto-go-auth, EMQX 5, VerneMQ webhooks), answered from the database by the embedded broker's rules: username = device id, password = device key, client id = the device id or the id, '-' and a suffix, its own topics only; MQTT_URL's user is the only superuser. Each call carries the secret as header x-portal-hook-secret or query ?secret=. Unset: the hooks answer 404.",
  },
  {
    name: 'MQTT_MAX_PACKET_BYTES',
    default: String(DEFAULT_MQTT_MAX_PACKET_BYTES),
    description: `Embedded broker: the largest MQTT packet accepted (at least ${MIN_MQTT_MAX_PACKET_BYTES}, room for a 64 kB record). A connection whose packet declares more is closed before its body is read, as is one that sends more than this before its CONNECT is accepted.`,
  },
  {
    name: 'MQTT_CONNECT_TIMEOUT_MS',
    default: '10000',
    description:
      'Embedded broker: time a new connection has to send its CONNECT and be authenticated; then it is closed.',
  },
  {
    name: 'MQTT_SHARED_CONNECTIONS',
    default: '128',
    description:
      "With MQTT_URL: connections in the shared subscription. Each takes the broker's in-flight window of messages (at most 32 waiting for their store) and acknowledges each once it is stored; the broker holds a backlog per connection (Mosquitto's max_queued_messages, 1000 by default), so 128 connections ride out a burst of 128,000 messages.",
  },
  {
    name: 'INGEST_HOLD_MS',
    default: '5000',
    description:
      'Under load, the rollups, latest values and contact times of stored records are written together, at most this many ms later (records themselves are stored before their acknowledgement). 0 writes them with every batch: set 0 when several portal instances share one database.',
  },
  {
    name: 'MAP_TILE_URL',
    default: DEFAULT_MAP_TILES.url,
    description:
      "The map tiles (a Leaflet URL template with {z}, {x}, {y} and optionally {s}): a self-hosted tile server for offline installations. The pages' content security policy allows images from its origin.",
  },
  {
    name: 'MAP_TILE_ATTRIBUTION',
    default: 'OpenStreetMap contributors',
    description: "The attribution shown on maps (HTML); with MAP_TILE_URL unset, OpenStreetMap's.",
  },
  {
    name: 'FIRMWARE_VERSIONS',
    default: DEFAULT_FIRMWARE_VERSIONS.join(','),
    description:
      'The known firmware, comma-separated firmware strings (SFW{3 digits}-{major}.{minor}.{patch}): a firmware update (POST /api/device/{id}/firmware) must name one of them; GET /api/firmware lists them.',
  },
  {
    name: 'BILLING_PROVIDER',
    default: DEFAULT_BILLING_PROVIDER,
    description:
      "The payment provider of subscriptions. 'invoicing' (built in): a subscription issues an invoice and makes the device Hosted at once for a 30-day grace; staff mark invoices paid; unpaid ones return the device to its previous plan; the billing portal is /account/invoices.",
  },
  {
    name: 'CURRENCY',
    default: DEFAULT_CURRENCY,
    description: 'ISO 4217 code of the currency prices are shown and invoices issued in (e.g. USD, EUR, AUD).',
  },
];

/** The variables as a Markdown table, for the README (`npm run config-table -w apps/server`). */
export function configTableMarkdown(): string {
  const rows = CONFIG_VARIABLES.map(
    (v) => `| \`${v.name}\` | \`${v.default.replace(/\|/g, '\\|')}\` | ${v.description.replace(/\|/g, '\\|')} |`,
  );
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
