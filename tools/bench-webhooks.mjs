// `node tools/bench-webhooks.mjs [--deliveries 1000] [--concurrency 4] [--rounds 3]`: webhook deliveries per
// second through the real webhook-dispatcher with signing, persistence and the SSRF check on, next to a
// bare undici POST loop to the same local HTTPS receiver (in a worker thread) with the same concurrency
// (requests in flight to it), measured in the same run.
//
// - end to end: events published on the in-process bus as an outbox relay would (keyed by transfer,
//   so spread over its partitions), consumed in batches (one statement per batch: inbox, stored
//   events, fan-out to deliveries), claimed, signed, POSTed and recorded in PostgreSQL;
// - delivery stage: the same for a backlog ingested beforehand (claim → sign → POST → record only),
//   as after a receiver outage.
// The dispatcher resolves and checks the host on every delivery and reuses kept-alive connections
// pinned to the checked address. The reference (target ≥ 0.5) is the bare loop over kept-alive
// connections; the bare loop with a new TLS connection per POST (what the dispatcher did before) is
// reported alongside. A round runs both bare loops just before and after the dispatcher's phases;
// the ratios are the median of the rounds. PostgreSQL: a throwaway embedded server, or a throwaway
// database beside DATABASE_URL.
//
// Each round also measures a floor: the least a dispatcher that persists its deliveries does (one
// INSERT of the whole batch, the same signing and POSTs, attempts recorded 64 per statement, and
// none of the rest), so the ratio of the dispatcher can be read against what any durable one reaches
// on this machine.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
  },
});
const deliveries = Number(values.deliveries);
const concurrency = Number(values.concurrency);
const roundCount = Number(values.rounds);
if (!(deliveries > 0 && concurrency > 0 && roundCount > 0)) {
  console.error('usage: node tools/bench-webhooks.mjs [--deliveries 1000] [--concurrency 4] [--rounds 3]');
  process.exit(2);
}
/**
 * Both sides are warmed up as much as one phase measures before the first round: with 50 each, the
 * first round's dispatcher ran at 700–900 /s and its keep-alive loop at 2,000–2,400 /s, against
 * 1,200–1,500 and 6,000–11,000 /s in later rounds (session 11).
 */
const WARMUP = deliveries;
/** The keep-alive loop takes 0.1–0.3 s for `deliveries` POSTs: it runs twice as many. */
const KEEP_ALIVE_POSTS = 2 * deliveries;
/** The new-connection loop is slow (a handshake per POST): fewer POSTs give its rate as well. */
const NEW_CONNECTION_POSTS = Math.min(300, deliveries);
const TARGET = 0.5;

await build(['contracts', 'crypto', 'messaging', 'persistence', 'platform', 'testing', 'webhook-dispatcher']);
const require = createRequire(import.meta.url);
const dist = (path) => require(join(repoRoot, 'dist', path));
const { startEmbeddedPostgres } = dist('libs/persistence');
const { TransferConfirmed } = dist('libs/contracts');
const { generateTestCertificates, inProcessCommandBus, inProcessTestRuntime } = dist('libs/testing');
const { start } = dist('apps/webhook-dispatcher/webhook-dispatcher.js');
const { createWebhook } = dist('apps/webhook-dispatcher/testing/dispatcher-harness.js');
const { eventEnvelope, publishEvent, senderParty, transferPayload } = dist(
  'apps/webhook-dispatcher/testing/event-factories.js',
);
const { deliveryHeaders } = dist('apps/webhook-dispatcher/signing/webhook-signature.domain.js');
const { Agent, request } = require('undici');
const { Client, Pool } = require('pg');
const { DataSource } = require('typeorm');

/** A throwaway database: on an embedded server, or beside DATABASE_URL (dropped afterwards). */
async function throwawayDatabase() {
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'cts-bench-webhooks-'));
    const pg = await startEmbeddedPostgres(dir);
    return {
      url: pg.url,
      drop: async () => {
        await pg.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const server = new URL(process.env.DATABASE_URL);
  const name = `cts_bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const client = new Client({ connectionString: server.toString() });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A local HTTPS receiver answering 204 at once, counting what it received per path. It runs in a
 * worker thread, with its own event loop like a real remote receiver, so its TLS work is not done
 * on the thread under test.
 */
async function startReceiver(certificates) {
  const counts = new Map();
  const worker = new Worker(
    `const { createServer } = require('node:https');
     const { parentPort, workerData } = require('node:worker_threads');
     const server = createServer({ key: workerData.key, cert: workerData.cert }, (req, res) => {
       req.resume();
       req.on('end', () => {
         parentPort.postMessage(req.url);
         res.writeHead(204);
         res.end();
       });
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));`,
    { eval: true, workerData: { key: certificates.key, cert: certificates.cert } },
  );
  const port = await new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message) => resolve(message.port));
  });
  worker.on('message', (path) => counts.set(path, (counts.get(path) ?? 0) + 1));
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    count: (path) => counts.get(path) ?? 0,
    close: () => worker.terminate(),
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function publish(bus, count, tag) {
  for (let i = 0; i < count; i += 1) {
    const payload = transferPayload({
      transfer_id: `tr_${tag}_${i}`,
      sender: senderParty('acct_bench', '@bench'),
    });
    publishEvent(bus, TransferConfirmed, eventEnvelope(TransferConfirmed, payload), payload.transfer_id);
  }
}

/** Resolves once the receiver has `total` deliveries and PostgreSQL records them all as succeeded. */
async function delivered(receiver, dataSource, total) {
  const deadline = Date.now() + 120_000;
  const check = (done) => {
    if (Date.now() > deadline) throw new Error(`only ${done} of ${total} delivered`);
  };
  while (receiver.count('/dispatcher') < total) {
    check(receiver.count('/dispatcher'));
    await sleep(2);
  }
  for (;;) {
    const [{ done }] = await dataSource.query(
      `SELECT count(*)::int AS done FROM "webhooks"."deliveries" WHERE status = 'succeeded'`,
    );
    if (done >= total) return;
    check(done);
    await sleep(5);
  }
}

const rate = (count, started) => {
  const seconds = (performance.now() - started) / 1000;
  return { deliveries: count, seconds, perSecond: count / seconds };
};

/** `count` POSTs of `body` by `concurrency` workers, one request at a time each. */
async function bareLoop(url, body, ca, count, keepAlive) {
  const agent = new Agent({ connect: { secureContext: createSecureContext({ ca }) } });
  const headers = { 'content-type': 'application/json', 'user-agent': 'bench' };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const response = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          reset: !keepAlive,
        });
        await response.body.dump();
        if (response.statusCode !== 204) throw new Error(`bare POST: ${response.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { deliveries: count, seconds, perSecond: count / seconds };
}

/** Copies of the deliveries and attempts tables (same columns, defaults and indexes) for the floor. */
async function floorTables(url) {
  const pool = new Pool({ connectionString: url, max: 2 });
  await pool.query(`CREATE SCHEMA bench_floor;
    CREATE TABLE bench_floor.deliveries (LIKE "webhooks"."deliveries" INCLUDING ALL);
    CREATE TABLE bench_floor.delivery_attempts (LIKE "webhooks"."delivery_attempts" INCLUDING ALL)`);
  return pool;
}

const RECORD_FLOOR_ATTEMPTS = `WITH attempt AS (
    INSERT INTO bench_floor.delivery_attempts
      (id, delivery_id, account_id, environment, attempt_number, attempted_at, duration_ms, status_code)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
      $7::int[], $8::int[]))
  UPDATE bench_floor.deliveries d SET status = 'succeeded', attempt_count = 1, first_attempt_at = r.at,
    last_attempt_at = r.at, last_status_code = r.code, next_attempt_at = NULL
  FROM unnest($2::text[], $6::timestamptz[], $8::int[]) AS r(id, at, code)
  WHERE d.id = r.id`;
const FLOOR_RECORD_BATCH = 64;

/**
 * The floor: `count` deliveries inserted in one statement, then each signed as the dispatcher signs
 * and POSTed by `concurrency` workers over kept-alive connections, its attempt recorded with 63
 * others in one statement. No claims, inbox, events rows, SSRF look-up or retry schedule.
 */
async function floorLoop(pool, url, ca, body, count, tag) {
  const agent = new Agent({ connect: { secureContext: createSecureContext({ ca }) } });
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const ids = Array.from({ length: count }, (_, i) => `dlv_floor_${tag}_${i}`);
  const started = performance.now();
  const createdAt = new Date();
  await pool.query(
    `INSERT INTO bench_floor.deliveries (id, subscription_id, event_id, account_id, environment, event_type,
       body, status, attempt_count, next_attempt_at, created_at)
     SELECT id, 'whk_floor', 'evt_' || id, 'acct_bench', 'test', 'transfer.confirmed', $2, 'pending', 0, $3, $3
     FROM unnest($1::text[]) AS id`,
    [ids, body, createdAt],
  );
  const recorded = [];
  let answered = [];
  const record = () => {
    const rows = answered;
    answered = [];
    const column = (pick) => rows.map(pick);
    recorded.push(
      pool.query(RECORD_FLOOR_ATTEMPTS, [
        column(() => randomUUID()),
        column((r) => r.id),
        column(() => 'acct_bench'),
        column(() => 'test'),
        column(() => 1),
        column((r) => r.at),
        column((r) => r.ms),
        column((r) => r.code),
      ]),
    );
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const id = ids[next++];
        const at = new Date();
        const headers = deliveryHeaders({
          secret,
          webhookId: id,
          timestampSeconds: Math.floor(at.getTime() / 1000),
          body,
          userAgent: 'bench-floor',
        });
        const response = await request(url, { method: 'POST', headers, body, dispatcher: agent });
        await response.body.dump();
        answered.push({ id, at, ms: Math.round(performance.now() - started), code: response.statusCode });
        if (answered.length >= FLOOR_RECORD_BATCH) record();
      }
    }),
  );
  if (answered.length > 0) record();
  await Promise.all(recorded);
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { deliveries: count, seconds, perSecond: count / seconds };
}

const certificates = generateTestCertificates();
const receiver = await startReceiver(certificates);
const db = await throwawayDatabase();
let service;
let floorPool;
try {
  const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '10000', LOG_LEVEL: 'warn' };
  // One endpoint with `concurrency` requests in flight, as in the bare loop; more attempts than that
  // (each a transaction), so claiming and recording overlap the requests of others.
  const options = {
    extraCa: certificates.ca,
    maxConcurrentAttempts: 3 * concurrency,
    maxInFlightPerEndpoint: concurrency,
  };
  const startDispatcher = async (overrides = {}) => {
    const runtime = inProcessTestRuntime(db.url, env);
    service = await start(runtime, { ...options, ...overrides });
    return {
      bus: runtime.bus,
      dataSource: service.app.get(DataSource),
      commands: inProcessCommandBus(runtime.bus),
    };
  };
  let dispatcher = await startDispatcher();
  const created = await createWebhook(dispatcher.commands, {
    account_id: 'acct_bench',
    environment: 'test',
    url: receiver.url('/dispatcher'),
    events: ['transfer.confirmed'],
  });
  if (!created.ok) throw new Error(`subscribing failed: ${created.error.message}`);
  floorPool = await floorTables(db.url);
  const sample = JSON.stringify({
    event_id: 'evt_bench',
    event: 'transfer.confirmed',
    account: '@bench',
    timestamp: new Date().toISOString(),
    ...transferPayload(),
  });

  console.log(
    `${deliveries} webhook deliveries, concurrency ${concurrency}, ${availableParallelism()} cores, ` +
      `PostgreSQL ${process.env.DATABASE_URL ? 'beside DATABASE_URL' : 'embedded'}\n`,
  );
  let total = 0;
  publish(dispatcher.bus, WARMUP, 'warmup');
  await delivered(receiver, dispatcher.dataSource, (total += WARMUP));
  await bareLoop(receiver.url('/warmup'), sample, certificates.ca, 100, false);
  await bareLoop(receiver.url('/warmup'), sample, certificates.ca, KEEP_ALIVE_POSTS, true);
  await floorLoop(floorPool, receiver.url('/warmup'), certificates.ca, sample, deliveries, 'warmup');

  // A round runs the bare loop before and after the dispatcher phases; their mean is the round's
  // reference (a busy machine changes speed within a run, by up to a third on this one).
  const bareBoth = async (path) => ({
    keepAlive: await bareLoop(receiver.url(path), sample, certificates.ca, KEEP_ALIVE_POSTS, true),
    newConnection: await bareLoop(receiver.url(path), sample, certificates.ca, NEW_CONNECTION_POSTS, false),
  });
  const meanRate = (before, after) => {
    const count = before.deliveries + after.deliveries;
    const seconds = before.seconds + after.seconds;
    return { deliveries: count, seconds, perSecond: count / seconds };
  };
  // A round runs the bare loops before and after the dispatcher phases; their mean is the round's
  // reference (a busy machine changes speed within a run, by up to a third on this one).
  const runRound = async (round) => {
    const bareBefore = await bareBoth('/bare');
    let started = performance.now();
    publish(dispatcher.bus, deliveries, `run${round}`);
    const ingested = dispatcher.bus.drain().then(() => (performance.now() - started) / 1000);
    await delivered(receiver, dispatcher.dataSource, (total += deliveries));
    const endToEnd = { ...rate(deliveries, started), ingestedSeconds: await ingested };

    // A backlog: ingested by a replica that makes no attempts, then drained by a normal one.
    await service.close();
    dispatcher = await startDispatcher({ maxConcurrentAttempts: 0 });
    publish(dispatcher.bus, deliveries, `backlog${round}`);
    await dispatcher.bus.drain();
    await service.close();
    started = performance.now();
    dispatcher = await startDispatcher();
    await delivered(receiver, dispatcher.dataSource, (total += deliveries));
    const deliveryStage = rate(deliveries, started);
    const floor = await floorLoop(
      floorPool,
      receiver.url('/floor'),
      certificates.ca,
      sample,
      deliveries,
      round,
    );

    const bareAfter = await bareBoth('/bare');
    const keepAlive = meanRate(bareBefore.keepAlive, bareAfter.keepAlive);
    const newConnection = meanRate(bareBefore.newConnection, bareAfter.newConnection);
    return {
      endToEnd,
      deliveryStage,
      floor,
      keepAlive,
      newConnection,
      bareBefore,
      bareAfter,
      ratio: endToEnd.perSecond / keepAlive.perSecond,
      deliveryStageRatio: deliveryStage.perSecond / keepAlive.perSecond,
      floorRatio: floor.perSecond / keepAlive.perSecond,
      newConnectionRatio: endToEnd.perSecond / newConnection.perSecond,
    };
  };
  const rounds = [];
  for (let round = 1; round <= roundCount; round += 1) {
    rounds.push(await runRound(round));
  }
  if (receiver.count('/dispatcher') !== total) {
    throw new Error(
      `the receiver got ${receiver.count('/dispatcher')} deliveries, expected ${total} (once each)`,
    );
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratio = median(rounds.map((r) => r.ratio));
  const deliveryStageRatio = median(rounds.map((r) => r.deliveryStageRatio));
  const newConnectionRatio = median(rounds.map((r) => r.newConnectionRatio));
  const floorRatio = median(rounds.map((r) => r.floorRatio));
  const line = (name, r, note) =>
    console.log(
      `${name.padEnd(32)} ${r.perSecond.toFixed(1).padStart(8)} deliveries/s  (${r.seconds.toFixed(2)} s${note})`,
    );
  rounds.forEach((r, index) => {
    console.log(`round ${index + 1}`);
    line(
      '  dispatcher, end to end',
      r.endToEnd,
      `: bus → inbox → fan-out → sign → POST → record; all ingested after ${r.endToEnd.ingestedSeconds.toFixed(2)} s`,
    );
    line('  dispatcher, delivery stage', r.deliveryStage, ': backlog → claim → sign → POST → record');
    line('  floor (durable, nothing else)', r.floor, ': one INSERT → sign → POST → record by 64');
    line(
      '  bare undici, keep-alive',
      r.keepAlive,
      `, ${concurrency} kept-alive connections; ${r.bareBefore.keepAlive.perSecond.toFixed(0)} before, ${r.bareAfter.keepAlive.perSecond.toFixed(0)} after`,
    );
    line(
      '  bare undici, new connection',
      r.newConnection,
      `, a new TLS connection per POST; ${r.bareBefore.newConnection.perSecond.toFixed(0)} before, ${r.bareAfter.newConnection.perSecond.toFixed(0)} after`,
    );
    console.log(
      `  ratio × keep-alive: ${r.ratio.toFixed(2)} end to end, ${r.deliveryStageRatio.toFixed(2)} delivery stage, ${r.floorRatio.toFixed(2)} floor; ` +
        `× new connection: ${r.newConnectionRatio.toFixed(2)} end to end`,
    );
  });
  console.log(
    `ratio (median of ${roundCount} rounds)  ${ratio.toFixed(2)} end to end, ${deliveryStageRatio.toFixed(2)} delivery stage × bare keep-alive ` +
      `(target ≥ ${TARGET}); ${newConnectionRatio.toFixed(2)} end to end × bare new connection per POST; ` +
      `floor ${floorRatio.toFixed(2)} × bare keep-alive`,
  );
  console.log(
    JSON.stringify({
      deliveries,
      concurrency,
      cores: availableParallelism(),
      rounds,
      ratio,
      deliveryStageRatio,
      newConnectionRatio,
      floorRatio,
      target: TARGET,
      met: ratio >= TARGET,
    }),
  );
} finally {
  await floorPool?.end();
  await service?.close();
  await receiver.close();
  await db.drop();
}
