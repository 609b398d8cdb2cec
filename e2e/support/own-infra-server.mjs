// A broker or database of one test's own, so the test may kill and restart it:
//   node e2e/support/own-infra-server.mjs kafka <dir> <port> <controllerPort>
//   node e2e/support/own-infra-server.mjs postgres <dir> <port>
//   node e2e/support/own-infra-server.mjs redis <dir> <port>
// Prints `READY <address>` once it answers; stops it on SIGTERM. Started again on the same dir and
// ports, it picks up the data it left (a broker after SIGKILL recovers its logs).
import { startKafka } from '../../deploy/local/kafka.mjs';
import { startPostgres } from '../../deploy/local/postgres.mjs';
import { startRedis } from '../../deploy/local/redis.mjs';

const [kind, dir, port, controllerPort] = process.argv.slice(2);
const started =
  kind === 'kafka'
    ? await startKafka({ dir, port: Number(port), controllerPort: Number(controllerPort) })
    : kind === 'redis'
      ? await startRedis({ dir, port: Number(port) })
      : await startPostgres({ dir, port: Number(port) });
console.log(`READY ${kind === 'kafka' ? started.brokers : started.url}`);
const stop = async () => {
  await started.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
