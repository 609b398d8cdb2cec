// `npm run bench`: confidential transfers per second end to end through the one-process mode (HTTP →
// gateway → in-process bus → transfer-service → ledger with real proofs), next to the raw ledger rate
// (the same transfers straight against a local runtime) measured in the same run, and their ratio.
// Usage: node tools/bench.mjs [--transfers 80 --sources 8]   (npm run bench runs it with the defaults)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

const { values } = parseArgs({ options: { transfers: { type: 'string', default: '80' }, sources: { type: 'string', default: '8' } } });
const transfers = Number(values.transfers);
const sources = Number(values.sources);

await build();
const require = createRequire(import.meta.url);
const { measureRawLedgerRate } = require(join(repoRoot, 'dist/libs/ledger'));

async function startOneProcess() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-bench-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, PORT: String(port), CTS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.KAFKA_BROKERS;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [join(repoRoot, 'tools/start.mjs')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!output.includes('is running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`one-process mode did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl: `http://127.0.0.1:${port}`, adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(), stop };
}

async function call(baseUrl, method, path, token, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function measureEndToEnd() {
  const stack = await startOneProcess();
  try {
    const create = (handle) =>
      call(stack.baseUrl, 'POST', '/admin/v1/accounts', stack.adminToken, { handle, type: 'personal', kyc_status: 'verified' });
    const recipient = await create('@bench_recipient');
    const senders = [];
    for (let i = 0; i < sources; i += 1) senders.push(await create(`@bench_sender_${i}`));
    const perSource = Math.ceil(transfers / sources);
    await Promise.all(senders.map((s) => call(stack.baseUrl, 'POST', '/v1/sandbox/fund', s.api_keys.test.secret, { asset: 'USDC', amount: String(perSource) })));
    const started = performance.now();
    let done = 0;
    await Promise.all(
      senders.map(async (sender, index) => {
        const count = Math.min(perSource, transfers - index * perSource);
        for (let i = 0; i < count; i += 1) {
          const transfer = await call(stack.baseUrl, 'POST', '/v1/transfers', sender.api_keys.test.secret, { to: recipient.account.handle, amount: '0.001' });
          if (transfer.status !== 'confirmed') throw new Error(`transfer ${transfer.transfer_id} is ${transfer.status}`);
          done += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { transfers: done, seconds, transfersPerSecond: done / seconds };
  } finally {
    await stack.stop();
  }
}

console.log(`${transfers} confidential USDC transfers from ${sources} accounts in parallel, ${availableParallelism()} cores\n`);
const raw = await measureRawLedgerRate({ transfers, sources });
console.log(`raw ledger   ${raw.transfersPerSecond.toFixed(2)} transfers/s  (${raw.seconds.toFixed(1)} s, mean ${raw.meanTransferMs.toFixed(0)} ms per transfer, ${raw.poolSize} proof workers)`);
const e2e = await measureEndToEnd();
console.log(`end to end   ${e2e.transfersPerSecond.toFixed(2)} transfers/s  (${e2e.seconds.toFixed(1)} s, HTTP → one-process mode → ledger)`);
const ratio = e2e.transfersPerSecond / raw.transfersPerSecond;
console.log(`ratio        ${ratio.toFixed(2)} × raw (target ≥ 0.80)`);
console.log(JSON.stringify({ transfers, sources, raw, e2e, ratio }));
