// Integration and e2e tiers run against real Kafka, PostgreSQL and Redis. `npm test` starts them once
// (deploy/local/with-infra.mjs) and passes their addresses in the environment; a direct `jest` run
// without them starts them here for the duration of the run.
const path = require('node:path');

module.exports = async function globalSetup() {
  const needed = ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL'].filter((name) => !process.env[name]);
  if (needed.length === 0) return;
  const infraModule = path.join(__dirname, '../../../../deploy/local/infra.mjs');
  const { startInfra } = await import(infraModule);
  const infra = await startInfra();
  Object.assign(process.env, infra.env);
  globalThis.__CTS_INFRA__ = infra;
};
