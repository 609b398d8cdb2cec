import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumerProject, pack } from './support/consumer-project';
import { type OneProcessMode, startOneProcessMode } from './support/one-process-mode';
import { account } from './support/transfers.behaviour';

const repoRoot = join(__dirname, '..');
const TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
};

// The quickstart's own file, as an ES module and as CommonJS, each with a two-line runner.
const QUICKSTART = readFileSync(join(repoRoot, 'libs/sdk/examples/quickstart.ts'), 'utf8');
const RUN_ESM = `import { quickstart } from './quickstart.mjs';
declare const process: { argv: string[] };
const [baseUrl, apiKey, decryptionKey, recipient] = process.argv.slice(2);
console.log(JSON.stringify(await quickstart({ baseUrl, apiKey, decryptionKey, recipient })));
`;
const RUN_CJS = RUN_ESM.replace(
  "import { quickstart } from './quickstart.mjs';",
  "import { quickstart } from './quickstart.cjs';",
).replace(
  /console\.log\(JSON\.stringify\(await (.*)\)\);/,
  'void $1.then((result) => console.log(JSON.stringify(result)));',
);

// Every export, used the way its types allow: checked (never run) under each module setting below.
const EVERY_EXPORT = `import {
  ASSET_DECIMALS, assertWebhookSignature, assetDecimals, checkDecryptionKey, createDecryptionProof,
  CryptoError, CtsApiError, CtsClient, CtsNetworkError, decryptAmount, decryptBalance, decryptMemo,
  isAssetCode, loadZkSdk, MAX_DISCRETE_LOG_AMOUNT, payX402, verifyWebhookSignature,
  WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, WebhookSignatureError, x402Fetch, x402FetchWithPayment,
  X402PendingApprovalError, type CryptoErrorCode, type CtsEvent, type Transfer, type WebhookHeaders,
} from '@cts/sdk';

export async function tour(client: CtsClient, key: string, headers: WebhookHeaders): Promise<unknown[]> {
  await loadZkSdk();
  checkDecryptionKey(key);
  const created = await client.createTransfer({ to: '@bob', amount: '1', asset: 'USDC' }, { idempotencyKey: 'k' });
  const transfer: Transfer | undefined = created.kind === 'transfer' ? created.transfer : undefined;
  const { balances } = await client.balances({ include: 'ciphertext' });
  const events: CtsEvent[] = (await client.events({ limit: 1 })).events;
  const paid = await x402FetchWithPayment(client, 'https://example.com', undefined, { idempotencyKey: 'p' });
  const response: Response = await x402Fetch(client, new URL('https://example.com'));
  const payment = await payX402(client, { payment_required: 'e30=', resource: 'https://example.com' });
  let failure: string | number | boolean | undefined;
  try {
    assertWebhookSignature('whsec_x', new Uint8Array(), headers, { toleranceSeconds: 60 });
  } catch (error) {
    if (error instanceof CtsApiError) failure = error.status + error.code + (error.requestId ?? '') + (error.retryAfterMs ?? 0);
    if (error instanceof CtsNetworkError) failure = error.timedOut;
    if (error instanceof WebhookSignatureError) failure = error.reason;
    if (error instanceof X402PendingApprovalError) failure = error.transaction.transaction_id;
    if (error instanceof CryptoError) failure = error.code satisfies CryptoErrorCode;
  }
  return [
    transfer?.encrypted_amount === undefined ? '' : decryptAmount(key, transfer.encrypted_amount, 'USDC'),
    transfer?.encrypted_memo ? decryptMemo(key, transfer.encrypted_memo) : '',
    balances[0] === undefined ? '' : decryptBalance(key, balances[0]),
    createDecryptionProof(key, balances),
    verifyWebhookSignature('whsec_x', '{}', headers),
    ASSET_DECIMALS.USDC + assetDecimals('SOL'), isAssetCode('USDC'), MAX_DISCRETE_LOG_AMOUNT,
    WEBHOOK_EVENT_TYPES[0], WEBHOOK_TEST_EVENT, events, paid.payment?.amount, response.status,
    payment.kind, failure,
  ];
}
`;
// Each module setting a consumer may compile with; the published declarations must check under all.
const MODULE_SETTINGS = [
  { module: 'nodenext', moduleResolution: 'nodenext', files: ['every-export.mts', 'every-export.cts'] },
  { module: 'node16', moduleResolution: 'node16', files: ['every-export.mts', 'every-export.cts'] },
  { module: 'esnext', moduleResolution: 'bundler', files: ['every-export.ts'] },
  {
    module: 'commonjs',
    moduleResolution: 'node10',
    ignoreDeprecations: '6.0',
    files: ['every-export.ts'],
  },
];

// A client generated from docs/openapi.json, used the way its types allow; then a call they refuse.
const OPENAPI_CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';
declare const process: { argv: string[] };

const [baseUrl, apiKey] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${apiKey}\` } });
const me = await client.GET('/v1/accounts/me');
const funded = await client.POST('/v1/sandbox/fund', { body: { asset: 'USDC', amount: '5' } });
const listed = await client.GET('/v1/transfers', { params: { query: { limit: 5, status: 'confirmed' } } });
const missing = await client.GET('/v1/transfers/{transfer_id}', { params: { path: { transfer_id: 'tr_missing' } } });
const refused = await client.POST('/v1/transfers', { body: { to: '@nobody_here', amount: '0' } });
console.log(JSON.stringify({
  handle: me.data?.handle,
  funded: funded.data?.status,
  listed: listed.data?.transfers.length,
  missing: [missing.response.status, missing.error?.error.code],
  refused: [refused.response.status, refused.error?.error.code, refused.error?.error.param],
}));
`;
const MISUSED_CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://localhost' });
void client.GET('/v1/transfers', { params: { query: { limit: 'all' } } });
void client.POST('/v1/transfers', { body: { to: '@bob' } });
`;

describe('what a developer installs: the packed SDK and a client generated from the OpenAPI document', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cts-devx-'));
  const consumer = new ConsumerProject();
  let running: OneProcessMode;
  let stack: { baseUrl: string; adminToken: string };
  let packed: { tarball: string; files: string[] };
  let installed: { stdout: string; stderr: string };

  beforeAll(async () => {
    [running, packed] = await Promise.all([
      startOneProcessMode(dataDir),
      pack(join(repoRoot, 'libs/sdk'), consumer.dir),
    ]);
    stack = {
      baseUrl: running.baseUrl,
      adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
    };
    installed = await consumer.npm(
      'install',
      packed.tarball,
      'openapi-fetch@0.17.0',
      'openapi-typescript@7.13.0',
    );
  }, 600_000);

  afterAll(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(consumer.dir, { recursive: true, force: true });
  }, 60_000);

  it('packs a public, versioned package with its README, CommonJS, ES module, browser build and declarations', () => {
    const manifest = JSON.parse(
      readFileSync(join(consumer.dir, 'node_modules/@cts/sdk/package.json'), 'utf8'),
    ) as Record<string, unknown>;

    expect(manifest).toMatchObject({ name: '@cts/sdk', engines: { node: '^20.19.0 || >=22.12.0' } });
    expect(manifest.private).toBeUndefined();
    expect(manifest.version).toMatch(/^[1-9]\d*\.\d+\.\d+$|^0\.[1-9]\d*\.\d+$/);
    expect(Object.keys(manifest.dependencies as object).every((name) => !name.startsWith('@cts/'))).toBe(
      true,
    );
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/index.cjs',
        'dist/index.mjs',
        'dist/browser.mjs',
        'dist/index.d.ts',
        'dist/index.d.mts',
        'dist/zk-sdk.wasm',
      ]),
    );
    expect(packed.files.filter((file) => file.startsWith('src/') || file.endsWith('.spec.ts'))).toEqual([]);
    expect(readFileSync(join(consumer.dir, 'node_modules/@cts/sdk/README.md'), 'utf8')).toContain(
      'npm install @cts/sdk',
    );
  });

  it('installs into an empty project outside the repository without an engine warning', () => {
    expect(installed.stderr).not.toMatch(/EBADENGINE|ERESOLVE|deprecated/);
  });

  it('runs the quickstart from the installed package, as an ES module and as CommonJS, type-checked against its declarations', async () => {
    consumer.write('quickstart.mts', QUICKSTART);
    consumer.write('quickstart.cts', QUICKSTART);
    consumer.write('run-esm.mts', RUN_ESM);
    consumer.write('run-cjs.cts', RUN_CJS);
    consumer.write(
      'tsconfig.sdk.json',
      JSON.stringify({ ...TSCONFIG, files: ['run-esm.mts', 'run-cjs.cts'] }),
    );
    await consumer.tsc('tsconfig.sdk.json');

    for (const runner of ['out/run-esm.mjs', 'out/run-cjs.cjs']) {
      const [alice, bob] = [await account(stack), await account(stack)];
      const { stdout } = await consumer.node(
        runner,
        stack.baseUrl,
        alice.token,
        alice.decryption_key,
        bob.account.handle,
      );
      expect({ runner, result: JSON.parse(stdout) as unknown }).toEqual({
        runner,
        result: {
          handle: alice.account.handle,
          transferId: expect.stringMatching(/^tr_/),
          transferStatus: 'confirmed',
          sentAmount: '12.5',
          balances: expect.objectContaining({ USDC: '12.5' }),
        },
      });
    }
  }, 300_000);

  it('type-checks every export against the installed declarations under nodenext, node16, bundler and node10', async () => {
    for (const file of ['every-export.mts', 'every-export.cts', 'every-export.ts']) {
      consumer.write(file, EVERY_EXPORT);
    }
    const failures: Record<string, string> = {};
    for (const { files, ...settings } of MODULE_SETTINGS) {
      const name = `tsconfig.${settings.moduleResolution}.json`;
      consumer.write(
        name,
        JSON.stringify({
          compilerOptions: { ...TSCONFIG.compilerOptions, ...settings, noEmit: true },
          files,
        }),
      );
      await consumer.tsc(name).catch((error: { stdout: string }) => {
        failures[settings.moduleResolution] = error.stdout;
      });
    }

    expect(failures).toEqual({});
  }, 300_000);

  it('generates a typed client from docs/openapi.json that compiles, refuses what the API refuses, and calls the service', async () => {
    await consumer.node(
      'node_modules/openapi-typescript/bin/cli.js',
      join(repoRoot, 'docs/openapi.json'),
      '-o',
      'api.d.ts',
    );
    consumer.write('client.mts', OPENAPI_CLIENT);
    consumer.write('misused.mts', MISUSED_CLIENT);
    consumer.write('tsconfig.client.json', JSON.stringify({ ...TSCONFIG, files: ['client.mts'] }));
    consumer.write(
      'tsconfig.misused.json',
      JSON.stringify({
        ...TSCONFIG,
        compilerOptions: { ...TSCONFIG.compilerOptions, noEmit: true },
        files: ['misused.mts'],
      }),
    );
    await consumer.tsc('tsconfig.client.json');
    const misused = await consumer.tsc('tsconfig.misused.json').then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    const alice = await account(stack);

    const { stdout } = await consumer.node('out/client.mjs', stack.baseUrl, alice.token);

    expect(misused).toMatch(/misused\.mts\(5,.*'string' is not assignable to type 'number'/);
    expect(misused).toMatch(/misused\.mts\(6,.*amount/);
    expect(JSON.parse(stdout)).toEqual({
      handle: alice.account.handle,
      funded: 'confirmed',
      listed: 0,
      missing: [404, 'transfer_not_found'],
      refused: [400, 'invalid_request', 'amount'],
    });
  }, 600_000);
});
