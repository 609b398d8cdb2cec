import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAccountKeyMaterial, ownerAddressOf } from '../keys/account-keys';
import { type LedgerAccountView } from '../ledger.port';
import { connectInProcess } from '../local-ledger';
import { createLocalLedgerRuntime } from '../local-runtime/create-local-runtime';
import { createProofPool } from '../proof-pool/proof-pool';
import { SolanaRpcLedger } from '../solana-rpc/solana-rpc-ledger';
import { decryptPendingWithElGamal, decryptWithAeKey } from '../testing/balance-probe';
import { enginesUnderTest } from './engines-under-test';

// The local ledger (LiteSVM running Token-2022 and the ZK ElGamal proof program) accepts accounts
// configured, transfers and withdrawals proved by either engine, and the two mix on one ledger.
const engines = enginesUnderTest();
const USDC = 1_000_000n;

const confidential = (view: LedgerAccountView) => {
  if (!view.confidentialReady) {
    throw new Error(`${view.tokenAccount} is not confidential`);
  }
  return view;
};

describe('the local ledger with proofs from each engine', () => {
  let stateDir: string;
  let runtime: Awaited<ReturnType<typeof createLocalLedgerRuntime>>;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'cts-engine-spec-'));
    runtime = await createLocalLedgerRuntime({ stateDir, environment: 'test' });
  });

  afterAll(async () => {
    await runtime.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const recipient = generateAccountKeyMaterial();

  it.each(engines)(
    'opens, transfers to and pays out of accounts proved by the %s engine',
    async (engine) => {
      const pool = createProofPool({ size: 1, engine });
      const ledger = new SolanaRpcLedger({ ...connectInProcess(runtime), proofPool: pool });
      try {
        expect(pool.engine.name).toBe(engine);
        await ledger.init();
        const sender = generateAccountKeyMaterial();
        const [senderOwner, recipientOwner] = await Promise.all([
          ledger.openAccounts(sender),
          ledger.openAccounts(recipient),
        ]);
        await ledger.fundTestAccount(sender, 'USDC', 10n * USDC);
        const pendingBefore = confidential(await ledger.readAccount(recipientOwner, 'USDC'));

        const { signature } = await ledger.transferConfidential({
          from: sender,
          toOwner: recipientOwner,
          asset: 'USDC',
          amount: 1_234_567n,
        });
        expect(await ledger.confirmSignature(signature)).toBe('confirmed');
        const pending = confidential(await ledger.readAccount(recipientOwner, 'USDC'));
        expect(pending.pendingCreditCounter).toBe(pendingBefore.pendingCreditCounter + 1n);
        expect(
          decryptPendingWithElGamal(recipient, pending) - decryptPendingWithElGamal(recipient, pendingBefore),
        ).toBe(1_234_567n);

        const merchant = await ownerAddressOf(generateAccountKeyMaterial());
        const paid = await ledger.transferStandard({
          from: sender,
          toOwner: merchant,
          asset: 'USDC',
          amount: 2n * USDC,
        });
        expect(await ledger.confirmSignature(paid.signature)).toBe('confirmed');
        expect(await ledger.readAccount(merchant, 'USDC')).toMatchObject({ publicAmount: 2n * USDC });
        const left = confidential(await ledger.readAccount(senderOwner, 'USDC'));
        expect(decryptWithAeKey(sender, left)).toBe(10n * USDC - 1_234_567n - 2n * USDC);
      } finally {
        await ledger.close();
        await pool.close();
      }
    },
    120_000,
  );
});
