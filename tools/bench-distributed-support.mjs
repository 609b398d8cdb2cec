// Helpers of `npm run bench:distributed` (and `npm run bench`): CPU from /proc, HTTP load, and the two
// modes' start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './projects.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone
  }
}

/** User + system CPU seconds of one process (every thread), 0 once it is gone. */
export const cpuSecondsOf = (pid) => (procStat(pid)?.ticks ?? 0) / TICKS_PER_SECOND;

const cmdline = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** The pids given, those whose command line contains `marker`, and all their descendants. */
export function processTree(pids, marker) {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const parent = new Map(all.map((pid) => [pid, procStat(pid)?.ppid]));
  const roots = new Set([...pids, ...(marker ? all.filter((pid) => cmdline(pid).includes(marker)) : [])]);
  const inTree = (pid) => {
    for (let p = pid; p && p > 1; p = parent.get(p)) if (roots.has(p)) return true;
    return false;
  };
  return all.filter(inTree);
}

/** CPU used by each group of pids over `seconds`, in % of one core. */
export async function cpuOver(groups, seconds) {
  const ticks = (pids) => pids.reduce((sum, pid) => sum + (procStat(pid)?.ticks ?? 0), 0);
  const before = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, ticks(pids)]));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [
      name,
      ((ticks(pids) - before[name]) / TICKS_PER_SECOND / elapsed) * 100,
    ]),
  );
}

export async function call(baseUrl, method, path, token, body, headers = {}) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, body: text ? JSON.parse(text) : null };
}

export const quantile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
};

/** Fresh verified accounts with their test keys, funded when `fund` is given. */
export async function openAccounts(stack, count, prefix, fund) {
  const accounts = [];
  for (let i = 0; i < count; i++) {
    const created = await call(stack.baseUrl, 'POST', '/admin/v1/accounts', stack.adminToken, {
      handle: `@${prefix}${i}${Math.random().toString(36).slice(2, 6)}`,
      type: 'personal',
      kyc_status: 'verified',
    });
    if (created.status !== 201)
      throw new Error(`account creation: ${created.status} ${JSON.stringify(created.body)}`);
    const account = { handle: created.body.account.handle, key: created.body.api_keys.test.secret };
    if (fund) {
      const funded = await call(stack.baseUrl, 'POST', '/v1/sandbox/fund', account.key, {
        asset: 'USDC',
        amount: fund,
      });
      if (funded.status >= 300) throw new Error(`funding: ${funded.status} ${JSON.stringify(funded.body)}`);
    }
    accounts.push(account);
  }
  return accounts;
}

/** Sequential latency of one call: p50/p90 in ms after `warmup` calls; throws on any error status. */
export async function sequential(n, warmup, fn) {
  const xs = [];
  for (let i = 0; i < n + warmup; i++) {
    const r = await fn(i);
    if (r.status >= 300) throw new Error(`status ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    if (i >= warmup) xs.push(r.ms);
  }
  return { p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), n: xs.length };
}

/**
 * The sequential latency of two targets measured in alternating blocks (after warming both up), so
 * that both see the same machine: its speed drifts by ±15 % from minute to minute.
 */
export async function interleavedSequential({ blocks, perBlock, warmup }, a, b) {
  const ok = (r) => {
    if (r.status >= 300) throw new Error(`status ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r;
  };
  const warm = [[], []];
  for (let i = 0; i < warmup; i++) {
    warm[0].push(ok(await a(i)).ms);
    warm[1].push(ok(await b(i)).ms);
  }
  const xs = [[], []];
  for (let block = 0; block < blocks; block++) {
    for (const [index, fn] of [a, b].entries()) {
      for (let i = 0; i < perBlock; i++) xs[index].push(ok(await fn(block * perBlock + i)).ms);
    }
  }
  // The warm-up's p50 over each run of 20: shows where the latency settles.
  const byTwenty = (values) =>
    Array.from({ length: Math.ceil(values.length / 20) }, (_, i) =>
      quantile(values.slice(i * 20, i * 20 + 20), 0.5),
    );
  const stats = (values, warmed) => ({
    p50: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    n: values.length,
    warmupP50s: byTwenty(warmed),
  });
  return [stats(xs[0], warm[0]), stats(xs[1], warm[1])];
}

/**
 * Closed-loop load on two targets in alternating windows (`windows` of `seconds` each, for each),
 * after `warmupSeconds` of the same load on each that is not counted; requests/s and status counts
 * of each over all its windows, and each window's requests/s.
 */
export async function interleavedLoad(windows, seconds, clientsA, fnA, clientsB, fnB, warmupSeconds = 0) {
  const totals = [
    { done: 0, codes: {}, perWindow: [] },
    { done: 0, codes: {}, perWindow: [] },
  ];
  if (warmupSeconds > 0) {
    await closedLoop(clientsA, warmupSeconds, fnA);
    await closedLoop(clientsB, warmupSeconds, fnB);
  }
  for (let w = 0; w < windows; w++) {
    for (const [index, [clients, fn]] of [
      [clientsA, fnA],
      [clientsB, fnB],
    ].entries()) {
      const { codes, rps } = await closedLoop(clients, seconds, fn);
      totals[index].perWindow.push(rps);
      for (const [code, count] of Object.entries(codes)) {
        totals[index].codes[code] = (totals[index].codes[code] ?? 0) + count;
        totals[index].done += count;
      }
    }
  }
  return totals.map((t) => ({ rps: t.done / (windows * seconds), codes: t.codes, perWindow: t.perWindow }));
}

/** Closed-loop load: one loop per client for `seconds`; requests/s and status counts. */
export async function closedLoop(clients, seconds, fn) {
  const end = Date.now() + seconds * 1000;
  const codes = {};
  let done = 0;
  await Promise.all(
    clients.map(async (client, i) => {
      while (Date.now() < end) {
        const r = await fn(client, i);
        codes[r.status] = (codes[r.status] ?? 0) + 1;
        done++;
      }
    }),
  );
  return { rps: done / seconds, codes };
}

/** The one-process mode (`npm start`), as a user runs it: embedded PostgreSQL, in-process bus. */
export async function startOneProcess(extraEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-bench-one-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, ...extraEnv, PORT: String(port), CTS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'ADMIN_TOKEN']) delete env[name];
  const child = spawn(process.execPath, [join(repoRoot, 'tools/start.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 180_000;
  while (!output.includes('is running')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`one-process mode did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    pids: [child.pid],
    marker: dataDir,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sums a counter of a Prometheus text page by one label: `{ value of label: total }`. */
export async function scrapeCounter(url, metric, label) {
  const text = await (await fetch(url)).text();
  const totals = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(metric)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    const key = new RegExp(`${label}="([^"]*)"`).exec(line)?.[1] ?? '';
    totals[key] = (totals[key] ?? 0) + value;
  }
  return totals;
}
