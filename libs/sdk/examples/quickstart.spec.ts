import {
  encodeBase64,
  encodeDecryptionKey,
  formatAmount,
  parseAmount,
  parseDecryptionProofParam,
  verifyDecryptionProof,
  zk,
} from '@cts/crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { quickstart } from './quickstart';

// Not the e2e test (that one runs against the real service): a simulated service with real
// ciphertexts and real proof verification, so the documented example is known to work with the SDK.
const DECIMALS: Record<string, number> = { USDC: 6, SOL: 9 };
const keypair = new zk.ElGamalKeypair();
const aeKey = new zk.AeKey();
const decryptionKey = encodeDecryptionKey({
  elgamalSecret: keypair.secret().toBytes(),
  aeKey: aeKey.toBytes(),
});
const apiKey = 'svc_test_quickstart';
const balances: Record<string, bigint> = { USDC: 0n, SOL: 0n };
const transfer = { transfer_id: 'tr_1', to: '', encrypted_amount: '', reads: 0 };

function baseUnits(amount: string, asset: string): bigint {
  const parsed = parseAmount(amount, DECIMALS[asset]);
  if (!parsed.ok) {
    throw new Error(parsed.reason);
  }
  return parsed.value;
}

// Like the ledger: one fixed ciphertext per balance, replaced only when the balance changes.
const ledger = new Map<string, { amount: bigint; ciphertext: Uint8Array }>();
function ciphertextOf(asset: string): Uint8Array {
  const cached = ledger.get(asset);
  if (cached?.amount === balances[asset]) {
    return cached.ciphertext;
  }
  const ciphertext = keypair.pubkey().encryptU64(balances[asset]).toBytes();
  ledger.set(asset, { amount: balances[asset], ciphertext });
  return ciphertext;
}

function balancesResponse(url: URL, proofHeader: string | string[] | undefined): [number, unknown] {
  const ciphertexts = Object.fromEntries(Object.keys(balances).map((asset) => [asset, ciphertextOf(asset)]));
  // The SDK sends the proof in the header, never in the URL.
  const proof =
    typeof proofHeader === 'string' && !url.searchParams.has('decryption_proof') ? proofHeader : null;
  if (proof === null) {
    const withCiphertext = url.searchParams.get('include') === 'ciphertext';
    return [
      200,
      {
        balances: Object.entries(balances).map(([asset, amount]) => ({
          asset,
          has_balance: amount > 0n,
          ...(withCiphertext ? { ciphertext: encodeBase64(ciphertexts[asset]) } : {}),
        })),
      },
    ];
  }
  const parsed = parseDecryptionProofParam(proof, (asset) => DECIMALS[asset]);
  const valid =
    parsed.ok &&
    parsed.entries.every((entry) =>
      verifyDecryptionProof({
        elgamalPubkey: keypair.pubkey().toBytes(),
        availableBalanceCiphertext: ciphertexts[entry.asset],
        amount: entry.amount,
        proof: entry.proof,
      }),
    );
  if (!parsed.ok || !valid) {
    return [422, { error: { code: 'decryption_proof_invalid', message: 'no', request_id: 'req_1' } }];
  }
  return [
    200,
    {
      balances: parsed.entries.map(({ asset, amount }) => ({
        asset,
        amount: formatAmount(amount, DECIMALS[asset]),
      })),
    },
  ];
}

function route(req: IncomingMessage, body: string): [number, unknown] {
  const url = new URL(req.url ?? '', 'http://localhost');
  const input = body === '' ? {} : (JSON.parse(body) as Record<string, string>);
  switch (`${req.method} ${url.pathname}`) {
    case 'GET /v1/accounts/me':
      return [200, { account_id: 'acct_1', handle: '@alice', type: 'personal', kyc_status: 'verified' }];
    case 'POST /v1/sandbox/fund':
      balances[input.asset] += baseUnits(input.amount, input.asset);
      return [200, { asset: input.asset, status: 'confirmed' }];
    case 'POST /v1/transfers': {
      const amount = baseUnits(input.amount, input.asset);
      balances[input.asset] -= amount;
      Object.assign(transfer, {
        to: input.to,
        encrypted_amount: encodeBase64(aeKey.encrypt(amount).toBytes()),
      });
      return [
        201,
        { transfer_id: 'tr_1', status: 'pending', to: input.to, confidential: true, asset: 'USDC' },
      ];
    }
    case 'GET /v1/transfers/tr_1':
      transfer.reads += 1;
      // Pending on the first read, so the example's wait for settlement is exercised.
      return [200, { ...transfer, status: transfer.reads > 1 ? 'confirmed' : 'pending', asset: 'USDC' }];
    case 'GET /v1/accounts/me/balances':
      return balancesResponse(url, req.headers['x-decryption-proof']);
    default:
      return [404, { error: { code: 'not_found', message: url.pathname, request_id: 'req_0' } }];
  }
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const [status, payload] =
        req.headers.authorization === `Bearer ${apiKey}`
          ? route(req, body)
          : [401, { error: { code: 'unauthorized' } }];
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('runs the documented quickstart: fund, send 12.5 USDC, decrypt it, prove the balances', async () => {
  const result = await quickstart({ baseUrl, apiKey, decryptionKey, recipient: '@bob' });
  expect(result).toEqual({
    handle: '@alice',
    transferId: 'tr_1',
    transferStatus: 'confirmed',
    sentAmount: '12.5',
    balances: { USDC: '12.5', SOL: '0' },
  });
  expect(transfer.to).toBe('@bob');
}, 20_000);
