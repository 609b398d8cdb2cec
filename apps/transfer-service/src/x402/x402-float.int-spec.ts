import { type AccountParty, newId } from '@cts/contracts';
import { address } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { codeOf, TransferHarness } from '../testing/transfer-harness';

// An agent's public balance is the float its signed x402 payments draw on (docs/decisions.md, x402):
// its own transfers spend only what those payments have not promised. Real PostgreSQL, in-process ledger.
jest.setTimeout(120_000);

const USDC = 1_000_000n;
const PROMISED = 150_000n; // 0.15 USDC

describe('transfer-service: the x402 float of an agent', () => {
  const harness = new TransferHarness();
  let agent: AccountParty;
  let shop: AccountParty;
  let funder: AccountParty;

  beforeAll(async () => {
    await harness.start();
    agent = await harness.openAgent(await harness.openAccount({ type: 'business' }));
    shop = await harness.openAccount({ type: 'business' });
    funder = await harness.openAccount();
    await harness.fund(funder, 5n * USDC);
  });

  afterAll(() => harness.stop());

  const publicBalance = async (account: AccountParty): Promise<bigint> => {
    const ledger = await harness.service.service.app.get(Ledgers).of('test');
    const view = await ledger.readAccount(address(account.address), 'USDC');
    return view.exists ? view.publicAmount : 0n;
  };

  /** A payment signed (not settled) `agoMs` ago, as the x402 signer records it. */
  const signedPayment = async (amount: bigint, agoMs = 0): Promise<string> => {
    const id = newId('x402');
    await harness.service.query(
      `INSERT INTO transfers.x402_payments (id, environment, account_id, status, resource, network, pay_to,
         asset, amount_base_units, fee_payer, created_at)
       VALUES ($1, 'test', $2, 'signed', 'https://api.example.com/r', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
         $3, 'USDC', $4, $3, $5)`,
      [id, agent.account_id, shop.address, amount.toString(), new Date(Date.now() - agoMs)],
    );
    return id;
  };

  const sendStandard = (amount: bigint) => harness.send(agent, shop.handle, amount, { confidential: false });

  it('refuses a standard transfer that would spend public funds a signed, unsettled x402 payment needs', async () => {
    expect(codeOf(await harness.send(funder, agent.handle, PROMISED, { confidential: false }))).toBe('ok');
    expect(await publicBalance(agent)).toBe(PROMISED);
    const payment = await signedPayment(PROMISED);

    expect(codeOf(await sendStandard(PROMISED))).toBe('insufficient_balance');
    expect(await harness.rowsOf(agent)).toEqual([]);
    expect(await publicBalance(agent)).toBe(PROMISED);

    await harness.service.query(`UPDATE transfers.x402_payments SET status = 'settled' WHERE id = $1`, [
      payment,
    ]);
  });

  it('pays a standard transfer from the confidential balance, leaving the promised public funds in place', async () => {
    await signedPayment(PROMISED);
    await harness.fund(agent, PROMISED);

    const result = await sendStandard(PROMISED);

    expect(result.ok && result.value.kind === 'transfer' && result.value.transfer.status).toBe('confirmed');
    expect(await publicBalance(agent)).toBe(PROMISED);
  });

  it('spends only the unpromised part of the public balance, and all of it once the promise is old', async () => {
    expect(codeOf(await harness.send(funder, agent.handle, 2n * PROMISED, { confidential: false }))).toBe(
      'ok',
    );
    // 0.45 public, 0.15 + 0.15 promised (the payment above and this one): 0.15 is free.
    await signedPayment(PROMISED);
    expect(codeOf(await sendStandard(PROMISED + 1n))).toBe('insufficient_balance');
    expect(codeOf(await sendStandard(PROMISED))).toBe('ok');
    expect(await publicBalance(agent)).toBe(2n * PROMISED);

    // Signed longer ago than a blockhash lives: it can no longer land, so it promises nothing.
    await harness.service.query(
      `UPDATE transfers.x402_payments SET created_at = now() - interval '10 minutes' WHERE account_id = $1`,
      [agent.account_id],
    );
    expect(codeOf(await sendStandard(2n * PROMISED))).toBe('ok');
    expect(await publicBalance(agent)).toBe(0n);
  });
});
