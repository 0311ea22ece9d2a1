/** Starts the portal from the environment; prints where it runs and how to sign in. */
import { ConfigError, loadConfig } from './config';
import { startPortal, type Portal } from './portal';
import { DEMO_USER, STAFF_USER } from './seed';

/**
 * The exit status of a start refused on the configuration (a bad variable, a port taken): sysexits.h
 * EX_CONFIG, which `npm start` (scripts/restart-policy.mjs) and a systemd unit's
 * RestartPreventExitStatus never restart. Any other failed start exits 1.
 */
const EX_CONFIG = 78;

async function main(): Promise<void> {
  // A closed output (a supervisor or terminal stopping the whole process group takes the reader
  // of a pipe with it) must not end the process before its graceful stop: writes are dropped.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  let portal: Portal;
  try {
    const config = loadConfig();
    portal = await startPortal(config);
    console.log(`\nPortal is running at ${portal.url}`);
    if (config.seedDemo) {
      console.log(`  Demo account:  ${DEMO_USER.email} / ${DEMO_USER.password}`);
      console.log(`  Staff account: ${STAFF_USER.email} / ${STAFF_USER.password}`);
    }
    if (config.smtpUrl) console.log(`  Mail is sent through ${portal.app.services.mailer.description}.`);
    else
      console.log(
        `  Mail is not configured (SMTP_URL): messages are logged and kept in the outbox, readable by staff at ${portal.url}/api/outbox`,
      );
    if (!config.publicUrl)
      console.log(
        '  PUBLIC_URL is not set: links in mails and the QR codes of printed labels point at localhost, which no phone or other machine reaches (docs/operations.md, "Public addresses").',
      );
    console.log(`  API reference: ${portal.url}/api/docs\n`);
    // scripts/start.mjs waits for this to start the demo fleet on the ports actually taken.
    process.send?.({ type: 'portal-ready', port: portal.port, mqttPort: portal.mqttPort });
  } catch (error) {
    console.error(error instanceof Error ? error.message.split('\n')[0] : String(error));
    process.exit(error instanceof ConfigError ? EX_CONFIG : 1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    portal.app.log.info(`${signal} received: shutting down`);
    portal.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : String(error));
        process.exit(1);
      },
    );
  };
  // `npm start` delivers a Ctrl+C more than once (terminal, npm, scripts/start.mjs): one shutdown.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
