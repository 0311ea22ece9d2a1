/** Starts the portal from the environment; prints where it runs and how to sign in. */
import { loadConfig } from './config';
import { startPortal, type Portal } from './portal';
import { DEMO_USER, STAFF_USER } from './seed';
import { startDemoFleet } from './demo-fleet';
import type { Fleet } from '@portal/simulator';

async function main(): Promise<void> {
  let portal: Portal;
  let fleet: Fleet | null = null;
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
    if (config.seedDemo) {
      fleet = await startDemoFleet(portal, { dataDir: config.dataDir, mqttUrl: config.mqttUrl });
      if (fleet)
        console.log(`  Demo fleet: ${fleet.devices.length} simulated devices report to the demo account over MQTT.`);
    }
    console.log(`  API reference: ${portal.url}/api/docs\n`);
  } catch (error) {
    console.error(error instanceof Error ? error.message.split('\n')[0] : String(error));
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    portal.app.log.info(`${signal} received: shutting down`);
    (fleet ? fleet.stop() : Promise.resolve())
      .then(() => portal.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error instanceof Error ? error.message : String(error));
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
