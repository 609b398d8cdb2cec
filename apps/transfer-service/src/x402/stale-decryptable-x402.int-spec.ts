import { type AccountParty } from '@cts/contracts';
import { Ledgers } from '../ledger/ledgers';
import { codeOf, TransferHarness } from '../testing/transfer-harness';
import { heldBalance, leaveDecryptableStale, usdcView } from '../testing/stale-decryptable';
import { type ParsedQuote } from './x402-quote.domain';
import { X402Signer } from './x402-signer';

// A credit that raced an apply leaves an agent's decryptable (AE) balance short of the ElGamal one
// until the next apply restates it; a crash before that re-apply leaves it so. The x402 signer tops up
// the public float from the confidential balance: from a stale one, it applies first (a withdrawal
// proved against the short copy fails on the ledger). Real PostgreSQL, in-process ledger.
jest.setTimeout(120_000);

const USDC = 1_000_000n;
const NETWORK = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';

describe('transfer-service: an x402 payment from an agent whose decryptable balance is stale', () => {
  const harness = new TransferHarness();
  let funder: AccountParty;
  let agent: AccountParty;
  let shop: AccountParty;

  beforeAll(async () => {
    await harness.start();
    funder = await harness.openAccount();
    agent = await harness.openAgent(await harness.openAccount({ type: 'business' }));
    shop = await harness.openAccount({ type: 'business' });
    await harness.fund(funder, 10n * USDC);
    await harness.fund(agent, 3n * USDC);
    expect(codeOf(await harness.send(funder, agent.handle, USDC))).toBe('ok');
    // The apply of that 1 USDC is raced by 2 more: the copy says 4 USDC, the ledger holds 6.
    await leaveDecryptableStale(harness, agent, funder, 2n * USDC);
  });

  afterAll(() => harness.stop());

  /** A quote of the shop's for `amount`, as parsed from its 402 answer. */
  const quoteFor = async (amount: bigint): Promise<ParsedQuote> => {
    const ledger = await harness.service.service.app.get(Ledgers).of('test');
    const usdc = ledger.assets().find((asset) => asset.code === 'USDC');
    if (!usdc) {
      throw new Error('no USDC on the test ledger');
    }
    const resourceUrl = 'https://api.example.com/report';
    return {
      resource: { url: resourceUrl },
      resourceUrl,
      extensions: null,
      chosen: {
        accepted: {
          scheme: 'exact',
          network: NETWORK,
          amount: amount.toString(),
          asset: usdc.mint,
          payTo: shop.address,
          maxTimeoutSeconds: 60,
        },
        network: NETWORK,
        asset: { code: usdc.code, mint: usdc.mint, decimals: usdc.decimals },
        amount,
        payTo: shop.address,
        feePayer: shop.address,
        memo: null,
        maxTimeoutSeconds: 60,
      },
    };
  };

  it('applies the stale agent first, then tops its float up from the restated balance and signs', async () => {
    expect(await heldBalance(harness, agent)).toEqual({ decryptable: 4n * USDC, elgamal: 6n * USDC });

    // Within what the stale copy claims: trusted as it stood, the withdrawal's proof would fail.
    const signed = await harness.service.service.app
      .get(X402Signer)
      .sign(agent, 'test', await quoteFor(4n * USDC), (transaction) => Promise.resolve(transaction));

    expect(signed).toMatchObject({ kind: 'signed', payment: { transaction: expect.any(String) } });
    expect((await usdcView(harness, agent)).publicAmount).toBe(4n * USDC);
    expect(await heldBalance(harness, agent)).toEqual({ decryptable: 2n * USDC, elgamal: 2n * USDC });
  });
});
