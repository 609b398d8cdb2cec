// `npm run bench`: confidential transfers per second end to end through the one-process mode (HTTP →
// gateway → in-process bus → transfer-service → ledger with real proofs), next to the raw ledger rate
// (the same transfers straight against a local runtime) measured in the same run, and their ratio.
// Usage: node tools/bench.mjs [--transfers 80 --sources 8 --rounds 3]   (npm run bench: the defaults)
//
// This machine's speed drifts by ±15 % from minute to minute, so one raw run and one end-to-end run
// compare two different machines. A run is therefore several rounds: each end-to-end phase sits
// between two raw phases and is compared with their mean, and the median round is the result. The
// one-process mode is paused (SIGSTOP) while the raw ledger runs, so it takes none of its CPU.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build.mjs';
import { repoRoot } from './projects.mjs';

const { values } = parseArgs({
  options: { transfers: { type: 'string', default: '80' }, sources: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } },
});
const transfers = Number(values.transfers);
const sources = Number(values.sources);
const roundCount = Number(values.rounds);
if (!(transfers > 0 && sources > 0 && roundCount > 0)) {
  console.error('usage: node tools/bench.mjs [--transfers 80] [--sources 8] [--rounds 3]');
  process.exit(2);
}

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
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop,
  };
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

/** A recipient and `sources` senders, each funded for every round's transfers. */
async function openAccounts(stack) {
  const create = (handle) =>
    call(stack.baseUrl, 'POST', '/admin/v1/accounts', stack.adminToken, { handle, type: 'personal', kyc_status: 'verified' });
  const recipient = await create('@bench_recipient');
  const senders = [];
  for (let i = 0; i < sources; i += 1) senders.push(await create(`@bench_sender_${i}`));
  const funding = String(Math.ceil(transfers / sources) * roundCount);
  await Promise.all(senders.map((s) => call(stack.baseUrl, 'POST', '/v1/sandbox/fund', s.api_keys.test.secret, { asset: 'USDC', amount: funding })));
  return { recipient, senders };
}

async function measureEndToEnd(stack, { recipient, senders }) {
  const perSource = Math.ceil(transfers / sources);
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
}

async function measureRaw(stack) {
  stack.pause();
  try {
    return await measureRawLedgerRate({ transfers, sources });
  } finally {
    stack.resume();
  }
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const perSecond = (rate) => `${rate.toFixed(2)} /s`;

console.log(`${transfers} confidential USDC transfers from ${sources} accounts in parallel, ${availableParallelism()} cores, ${roundCount} round(s)\n`);
const stack = await startOneProcess();
const rounds = [];
try {
  const accounts = await openAccounts(stack);
  let rawBefore = await measureRaw(stack);
  for (let round = 1; round <= roundCount; round += 1) {
    const e2e = await measureEndToEnd(stack, accounts);
    const rawAfter = await measureRaw(stack);
    const raw = (rawBefore.transfersPerSecond + rawAfter.transfersPerSecond) / 2;
    rounds.push({ rawBefore, e2e, rawAfter, raw, ratio: e2e.transfersPerSecond / raw });
    console.log(
      `round ${round}  raw ${perSecond(rawBefore.transfersPerSecond)} before, ${perSecond(rawAfter.transfersPerSecond)} after` +
        ` (${rawAfter.poolSize} proof workers)   end to end ${perSecond(e2e.transfersPerSecond)}   ratio ${(e2e.transfersPerSecond / raw).toFixed(2)}`,
    );
    // The raw phase after this round is the one before the next.
    rawBefore = rawAfter;
  }
} finally {
  await stack.stop();
}
const ratio = median(rounds.map((r) => r.ratio));
console.log(`\nraw ledger   ${perSecond(median(rounds.map((r) => r.raw)))} (median over the rounds; the same transfers straight against a local runtime)`);
console.log(`end to end   ${perSecond(median(rounds.map((r) => r.e2e.transfersPerSecond)))} (median over the rounds; HTTP → one-process mode → ledger)`);
console.log(`ratio        ${ratio.toFixed(2)} × raw, median of ${roundCount} round(s) (target ≥ 0.80)`);
console.log(JSON.stringify({ transfers, sources, rounds, ratio }));
