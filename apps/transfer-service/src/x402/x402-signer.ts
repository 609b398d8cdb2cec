import { Injectable } from '@nestjs/common';
import { type AccountParty, type Environment } from '@cts/contracts';
import { Custody } from '@cts/custody';
import { InsufficientFundsOnchainError, type LedgerAccountView, type LedgerPort } from '@cts/ledger';
import { address } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { type X402PaymentRecord } from './x402-payment.domain';
import { X402PaymentRepository } from './x402-payment.repository';
import { type ParsedQuote } from './x402-quote.domain';

/**
 * Signs an x402 payment under the payer's settlement lock (the one transfers take): the public balance
 * is topped up from the confidential balance by exactly what it lacks — counting what payments signed
 * in the last minutes but not settled yet already promise — and the exact-scheme transaction is signed
 * by the agent's custody key only.
 */
@Injectable()
export class X402Signer {
  constructor(
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    private readonly locks: AccountLocks,
    private readonly payments: X402PaymentRepository,
  ) {}

  /** `record` is called under the lock with the signed payment, or not at all. */
  async sign<T>(
    payer: AccountParty,
    environment: Environment,
    quote: ParsedQuote,
    record: (signed: { transaction: string; message: string }) => Promise<T>,
  ): Promise<{ kind: 'signed'; payment: T } | { kind: 'insufficient' }> {
    const { chosen } = quote;
    const ledger = await this.ledgers.of(environment);
    const asset = chosen.asset.code;
    return this.locks.run(accountLockKey(payer.account_id, environment, asset), async () => {
      const committed = await this.payments.promisedPublic(
        payer.account_id,
        environment,
        asset as X402PaymentRecord['asset'],
      );
      const view = await ledger.readAccount(address(payer.address), asset);
      const lacking = chosen.amount + committed - (view.exists ? view.publicAmount : 0n);
      if (lacking > 0n && !(await this.canWithdraw(ledger, payer, environment, view, lacking))) {
        return { kind: 'insufficient' };
      }
      try {
        const signed = await this.custody.withKeys(payer.account_id, environment, async (keys) => {
          await ledger.ensurePublicBalance(keys, asset, chosen.amount, committed);
          return ledger.signExactPayment({
            from: keys,
            asset,
            payTo: address(chosen.payTo),
            amount: chosen.amount,
            feePayer: address(chosen.feePayer),
            memo: chosen.memo,
          });
        });
        return { kind: 'signed', payment: await record(signed) };
      } catch (error) {
        if (error instanceof InsufficientFundsOnchainError) {
          return { kind: 'insufficient' };
        }
        throw error;
      }
    });
  }

  /** Custody answers from the AE balance; pending credits are applied first when they are needed. */
  private async canWithdraw(
    ledger: LedgerPort,
    payer: AccountParty,
    environment: Environment,
    view: LedgerAccountView,
    amount: bigint,
  ): Promise<boolean> {
    if (!view.confidentialReady) {
      return false;
    }
    if (
      !view.decryptableStale &&
      (await this.custody.canSend(payer.account_id, environment, amount, view.decryptableAvailableBalance))
    ) {
      return true;
    }
    if (view.pendingCreditCounter === 0n && !view.decryptableStale) {
      return false;
    }
    await this.custody.withKeys(payer.account_id, environment, (keys) =>
      ledger.applyPendingBalance(keys, view.asset),
    );
    const after = await ledger.readAccount(address(payer.address), view.asset);
    return (
      after.confidentialReady &&
      this.custody.canSend(payer.account_id, environment, amount, after.decryptableAvailableBalance)
    );
  }
}
