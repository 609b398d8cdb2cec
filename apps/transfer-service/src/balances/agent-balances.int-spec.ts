import {
  type AccountParty,
  balanceSealingContext,
  decryptionProofSealingContext,
  GetBalances,
  newId,
  type SealedBalanceEntry,
} from '@cts/contracts';
import { encodeDecryptionProofParam, parseSealingKey, seal, unsealAmount, utf8Encode } from '@cts/crypto';
import { codeOf, context, TransferHarness } from '../testing/transfer-harness';

// Spec §4.2 on an agent's balances: its public balance (what standard transfers paid it) stays public
// as its x402 float, and still counts as held. Real PostgreSQL and the in-process ledger.
jest.setTimeout(120_000);

const USDC = 1_000_000n;
const PUBLIC = 1_250_000n; // 1.25 USDC

describe('transfer-service: the balances of an agent with a public balance', () => {
  const harness = new TransferHarness();
  let agent: AccountParty;
  let funder: AccountParty;

  beforeAll(async () => {
    await harness.start();
    agent = await harness.openAgent(await harness.openAccount({ type: 'business' }));
    funder = await harness.openAccount();
    await harness.fund(funder, 10n * USDC);
    expect(codeOf(await harness.send(funder, agent.handle, PUBLIC, { confidential: false }))).toBe('ok');
  });

  afterAll(() => harness.stop());

  const key = () => parseSealingKey(harness.service.runtime.secrets.dataSealingKey);

  /** The account's USDC entry; `proven` claims that confidential amount (192 zero bytes prove 0 of a never-funded balance). */
  const usdc = async (
    account: AccountParty,
    { ciphertext = false, proven }: { ciphertext?: boolean; proven?: string } = {},
  ): Promise<SealedBalanceEntry> => {
    const proof =
      proven === undefined
        ? null
        : seal(
            key(),
            utf8Encode(
              encodeDecryptionProofParam([{ asset: 'USDC', amount: proven, proof: new Uint8Array(192) }]),
            ),
            decryptionProofSealingContext(account.account_id),
          );
    const result = await harness.service.commands.send(
      GetBalances,
      {
        account_id: account.account_id,
        environment: 'test',
        include_ciphertext: ciphertext,
        sealed_decryption_proof: proof,
      },
      context,
    );
    if (!result.ok) {
      throw new Error(`balances failed: ${result.error.message}`);
    }
    const entry = result.value.balances.find((candidate) => candidate.asset === 'USDC');
    if (!entry) {
      throw new Error('no USDC entry');
    }
    return entry;
  };

  const provenAmount = (account: AccountParty, entry: SealedBalanceEntry): bigint | undefined =>
    entry.sealed_amount === undefined
      ? undefined
      : unsealAmount(key(), entry.sealed_amount, balanceSealingContext(account.account_id, 'USDC'));

  it('says an agent holding funds only in its public balance holds a balance', async () => {
    expect(await usdc(agent)).toMatchObject({ asset: 'USDC', has_balance: true });
  });

  it('counts the public balance in the proven amount, and shows it beside the ciphertext it is not in', async () => {
    expect(provenAmount(agent, await usdc(agent, { proven: '0' }))).toBe(PUBLIC);
    expect(await usdc(agent, { ciphertext: true })).toMatchObject({
      ciphertext: expect.any(String),
      public_amount: '1.25',
    });
  });

  it('leaves out what a signed, unsettled x402 payment was promised', async () => {
    await harness.service.query(
      `INSERT INTO transfers.x402_payments (id, environment, account_id, status, resource, network, pay_to,
         asset, amount_base_units, fee_payer, created_at)
       VALUES ($1, 'test', $2, 'signed', 'https://api.example.com/r', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
         $3, 'USDC', $4, $3, now())`,
      [newId('x402'), agent.account_id, funder.address, PUBLIC.toString()],
    );

    expect(await usdc(agent)).toMatchObject({ has_balance: false });
    expect(provenAmount(agent, await usdc(agent, { proven: '0' }))).toBe(0n);
    expect(await usdc(agent, { ciphertext: true })).toMatchObject({ public_amount: '0' });
  });

  it('keeps other accounts as they were: their public balance joins the confidential one, no public_amount', async () => {
    const carol = await harness.openAccount();
    expect(codeOf(await harness.send(funder, carol.handle, USDC, { confidential: false }))).toBe('ok');

    const entry = await usdc(carol, { ciphertext: true });

    expect(entry).toMatchObject({ has_balance: true, ciphertext: expect.any(String) });
    expect(entry).not.toHaveProperty('public_amount');
  });
});
