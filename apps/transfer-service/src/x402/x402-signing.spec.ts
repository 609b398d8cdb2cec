import { type AccountParty, fail, ok, PayX402 } from '@cts/contracts';
import { type AgentGate } from '../transfers/agent-gate';
import { type X402PaymentRecord } from './x402-payment.domain';
import { type X402PaymentRepository } from './x402-payment.repository';
import { type ParsedQuote } from './x402-quote.domain';
import { type X402Signer } from './x402-signer';
import { stoppedAnswer, X402Signing } from './x402-signing';

const held: X402PaymentRecord = {
  id: 'x402_held',
  environment: 'test',
  accountId: 'acct_agent',
  idempotencyKey: null,
  approvedTransactionId: 'atx_1',
  status: 'held',
  resource: 'https://api.example.com/report',
  network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  asset: 'USDC',
  amountBaseUnits: '100000',
  feePayer: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4',
  paymentSignature: null,
  message: null,
  chainSignature: null,
  createdAt: new Date('2030-01-01T00:00:00Z'),
  settledAt: null,
};
const quote = {
  resource: { url: held.resource },
  resourceUrl: held.resource,
  extensions: null,
  chosen: {
    accepted: {},
    network: held.network,
    asset: { code: 'USDC', mint: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr', decimals: 6 },
    amount: 100000n,
    payTo: held.payTo,
    feePayer: held.feePayer,
    memo: null,
    maxTimeoutSeconds: 60,
  },
} as unknown as ParsedQuote;
const payer = { account_id: held.accountId } as AccountParty;

/** The table's conditional updates, in memory: each is atomic, as one UPDATE … WHERE status is. */
class MemoryPayments {
  row: X402PaymentRecord = { ...held };

  claimHeld(): Promise<boolean> {
    const won = this.row.status === 'held';
    if (won) {
      this.row = { ...this.row, status: 'signing' };
    }
    return Promise.resolve(won);
  }

  releaseClaim(): Promise<void> {
    if (this.row.status === 'signing') {
      this.row = { ...this.row, status: 'held' };
    }
    return Promise.resolve();
  }

  markSigned(_: string, signed: Pick<X402PaymentRecord, 'paymentSignature' | 'message'>): Promise<boolean> {
    const won = this.row.status === 'signing';
    if (won) {
      this.row = { ...this.row, ...signed, status: 'signed' };
    }
    return Promise.resolve(won);
  }

  findById(): Promise<X402PaymentRecord> {
    return Promise.resolve(this.row);
  }
}

/** The signer's withdraw-then-sign, one at a time as under the account lock, counting withdrawals. */
class CountingSigner {
  withdrawals = 0;
  shortOfFunds = false;
  private queue: Promise<unknown> = Promise.resolve();

  sign<T>(
    _payer: unknown,
    _environment: unknown,
    _quote: unknown,
    record: (signed: { transaction: string; message: string }) => Promise<T>,
  ): Promise<{ kind: 'signed'; payment: T } | { kind: 'insufficient' }> {
    const run = this.queue.then(async () => {
      if (this.shortOfFunds) {
        return { kind: 'insufficient' as const };
      }
      this.withdrawals += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { kind: 'signed' as const, payment: await record({ transaction: 'dHg=', message: 'bXNn' }) };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

describe('X402Signing.signHeld', () => {
  let payments: MemoryPayments;
  let signer: CountingSigner;
  let signing: X402Signing;

  beforeEach(() => {
    payments = new MemoryPayments();
    signer = new CountingSigner();
    signing = new X402Signing(
      signer as unknown as X402Signer,
      payments as unknown as X402PaymentRepository,
      {} as AgentGate,
    );
  });

  it('withdraws and signs once for parallel claims of one approval; the others never get another payment', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => signing.signHeld(held, payer, quote)));

    expect(signer.withdrawals).toBe(1);
    const paid = answers.filter((answer) => answer.ok);
    expect(paid.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      expect(answer).toMatchObject(
        answer.ok
          ? { value: { kind: 'payment', payment: { payment_id: 'x402_held' } } }
          : { error: { code: 'service_unavailable' } },
      );
    }
    const later = await signing.signHeld(held, payer, quote);
    expect(later).toMatchObject({
      ok: true,
      value: { payment: { payment_id: 'x402_held', status: 'signed' } },
    });
    expect(signer.withdrawals).toBe(1);
  });

  it('gives the claim back when the balance falls short, so a later claim can sign it', async () => {
    signer.shortOfFunds = true;
    expect(await signing.signHeld(held, payer, quote)).toMatchObject({
      ok: false,
      error: { code: 'insufficient_balance' },
    });
    expect(payments.row.status).toBe('held');

    signer.shortOfFunds = false;
    expect((await signing.signHeld(held, payer, quote)).ok).toBe(true);
  });
});

describe('stoppedAnswer (the agent gate stopped an x402 payment)', () => {
  const terms = { pay_to: held.payTo, resource: held.resource };
  const transaction = {
    transaction_id: 'atx_1',
    status: 'pending_approval' as const,
    agent: '@agent',
    to: 'api.example.com',
    asset: 'USDC' as const,
    requested_at: '2030-01-01T00:00:00.000Z',
    expires_at: '2030-01-02T00:00:00.000Z',
  };

  it('answers a hold with the held transaction and whom it pays for what, as the 202 contract says', () => {
    const answer = stoppedAnswer(ok({ kind: 'held', transaction }), terms);
    expect(answer).toEqual(ok({ kind: 'held', transaction: { ...transaction, x402: terms } }));
    expect(answer.ok && PayX402.response.safeParse(answer.value).success).toBe(true);
  });

  it('passes a refusal on unchanged', () => {
    const refused = fail('policy_violation', 'over the limit', { reason: 'per_transaction_limit_exceeded' });
    expect(stoppedAnswer(refused, terms)).toBe(refused);
  });
});
