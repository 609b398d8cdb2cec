// `npm start`: the one-process mode. Builds what changed, then runs the gateway and every service in
// this process on the in-process bus, with an embedded PostgreSQL under CTS_DATA_DIR.
import { build } from './build.mjs';
import { loadGatewayApp, loadPlatform, loadRuntime, loadServiceApp, SERVICE_APPS } from './apps.mjs';

const compiled = await build();
if (compiled > 0) console.log(`built ${compiled} changed file(s)`);

const { loadConfig, adminTokenPath } = loadPlatform();
const { createEmbeddedRuntime } = loadRuntime();
let config;
let runtime;
try {
  config = loadConfig();
  runtime = await createEmbeddedRuntime(config);
} catch (error) {
  // A configuration or data-directory problem whose message says what to do: no stack to read past.
  if (!String(error?.code).startsWith('CTS_')) throw error;
  console.error(`npm start: ${error.message}`);
  process.exit(1);
}
const running = [];
let stopping = false;

async function stop(signal) {
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`\n${signal}: shutting down…`);
  for (const app of running.reverse()) await app.close();
  await runtime.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  for (const name of SERVICE_APPS) running.push(await loadServiceApp(name).start(runtime));
  const gateway = await loadGatewayApp().startGateway(runtime);
  running.push(gateway);
  const tokenSource = config.ADMIN_TOKEN ? 'the ADMIN_TOKEN variable' : adminTokenPath(config.CTS_DATA_DIR);
  console.log(`
Confidential Transfer Service is running (one process) at ${gateway.url}
  API docs:     ${gateway.url}/docs
  Metrics:      ${gateway.metricsUrl}/metrics (METRICS_PORT, not the API port)
  Admin token:  ${tokenSource}
  Data:         ${config.CTS_DATA_DIR}
Try:  npx cts accounts create @alice --type personal --kyc verified
Stop: Ctrl-C
`);
} catch (error) {
  const busy =
    error?.code === 'EADDRINUSE' &&
    ['PORT', 'METRICS_PORT', 'HEALTH_PORT'].find((n) => config[n] === error.port);
  if (busy)
    console.error(
      `npm start: ${busy}=${error.port} is in use (another npm start?): set ${busy} to a free port`,
    );
  else console.error('failed to start:', error);
  for (const app of running.reverse()) await app.close().catch(() => undefined);
  await runtime.stop();
  process.exit(1);
}
