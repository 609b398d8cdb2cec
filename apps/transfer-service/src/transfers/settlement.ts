import { Injectable } from '@nestjs/common';
import { type MessageContext, TransferConfirmed, TransferFailed, TransferInitiated } from '@cts/contracts';
import { inSpan, transferSettlement } from '@cts/platform';
import { Custody } from '@cts/custody';
import { type ConfidentialTransferReading, isLedgerError, type LedgerPort } from '@cts/ledger';
import { UnitOfWork } from '@cts/persistence';
import { address, type Signature } from '@solana/kit';
import { KeyTotals } from '../key-totals/key-totals';
import { AgentGate } from './agent-gate';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { spendablePublic } from '../x402/x402-payment.domain';
import { X402PaymentRepository } from '../x402/x402-payment.repository';
import { type TransferRecord, toTransferEvent } from './transfer.domain';
import { classifyLedgerFailure, publicAmountOf } from './transfer-rules.domain';
import { TransferRepository } from './transfer.repository';
import { assertConfirmed, CONFIRMED, type PartiesConfirmation } from './known-parties';

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

type Outcome = Pick<TransferRecord, 'status' | 'chainSignature' | 'failureReason' | 'confirmedAt'>;

/** Spec §5.5: an API key's "total USDC transferred" counts its confirmed USDC transfers. */
const countsTowardKeyTotal = (transfer: TransferRecord): boolean =>
  transfer.status === 'confirmed' && transfer.apiKeyId !== null && transfer.asset === 'USDC';

export type SettleResult = { kind: 'settled'; transfer: TransferRecord } | { kind: 'insufficient_balance' };

/** What a funded transfer settles from: its reading, and the public funds it must leave in place. */
interface Funding {
  reading: ConfidentialTransferReading;
  /** Public base units an agent's signed, unsettled x402 payments were promised. */
  promised: bigint;
}

/**
 * Moves the money of one transfer. Runs under the sender's lock, so the balance check, the proof and
 * the submission see one balance. The record and `transfer.initiated` commit while the proof is built
 * (nothing leaves the process meanwhile), before the signature is recorded; the signature is recorded
 * before anything is sent; so a crash at any point leaves either nothing sent and nothing to finish,
 * or a pending transfer the reconciler can finish from what the ledger says.
 */
@Injectable()
export class Settlement {
  constructor(
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    private readonly locks: AccountLocks,
    private readonly transfers: TransferRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly keyTotals: KeyTotals,
    private readonly agentGate: AgentGate,
    private readonly x402Payments: X402PaymentRepository,
  ) {}

  /**
   * `confirmation` resolves once the draft's parties are known to be account-service's answer: until
   * then the settlement reads and proves, and writes nothing (`StartOver` if they were not).
   */
  async settle(
    draft: TransferRecord,
    amount: bigint,
    context: MessageContext,
    confirmation: PartiesConfirmation = CONFIRMED,
  ): Promise<SettleResult> {
    const { sender, environment, asset } = draft;
    const ledger = await this.ledgers.of(environment);
    return this.locks.run(accountLockKey(sender.account_id, environment, asset), async () => {
      const timer = transferSettlement.startTimer({ asset });
      const funding = await this.fundedReading(ledger, draft, amount, confirmation);
      if (funding === null) {
        timer({ outcome: 'insufficient_balance' });
        return { kind: 'insufficient_balance' };
      }
      const recorded = assertConfirmed(confirmation).then(() =>
        this.unitOfWork.insertWithEvent(
          this.transfers.insertStatement(draft),
          TransferInitiated,
          draft.id,
          toTransferEvent(draft, publicAmountOf(draft, amount)),
          context,
        ),
      );
      recorded.catch(() => undefined); // awaited by submit, whatever happens there
      const transfer = await inSpan(
        'ledger.settle',
        { attributes: { 'cts.asset': asset, 'cts.confidential': draft.confidential } },
        () => this.submit(ledger, draft, amount, context, funding, recorded),
      );
      timer({ outcome: transfer.status });
      return { kind: 'settled', transfer };
    });
  }

  /** Finishes a pending transfer (after settling, a crash or a redelivery) with its outcome and event. */
  async finish(
    transfer: TransferRecord,
    outcome:
      | { status: 'confirmed'; signature: string }
      | { status: 'failed'; reason: string; signature: string | null },
    amount: bigint,
    context: MessageContext,
  ): Promise<TransferRecord> {
    const changes =
      outcome.status === 'confirmed'
        ? {
            status: 'confirmed' as const,
            chainSignature: outcome.signature,
            failureReason: null,
            confirmedAt: new Date(),
          }
        : {
            status: 'failed' as const,
            chainSignature: outcome.signature,
            failureReason: outcome.reason,
            confirmedAt: null,
          };
    const finished =
      (await this.finishAtOnce(transfer, changes, amount, context)) ??
      (await this.finishInTransaction(transfer, changes, amount, context));
    if (finished.status === 'failed') {
      await this.agentGate.release(finished, context);
    }
    return finished;
  }

  /**
   * The outcome, the key's running total and the event in one statement (one round trip instead of
   * six). Null when it cannot say: this replica does not know the key's current total (its first
   * transfer here, or another replica added to it since), so the transaction below does it.
   */
  private async finishAtOnce(
    transfer: TransferRecord,
    changes: Outcome,
    amount: bigint,
    context: MessageContext,
  ): Promise<TransferRecord | null> {
    const finished: TransferRecord = { ...transfer, ...changes, updatedAt: new Date() };
    const keyId = countsTowardKeyTotal(finished) ? finished.apiKeyId : null;
    let total: { keyId: string; from: string; to: string } | undefined;
    if (keyId !== null) {
      const from = this.keyTotals.lastKnown(keyId);
      if (from === undefined) {
        return null;
      }
      const to = await this.keyTotals.added(finished.sender.account_id, finished.environment, from, amount);
      total = { keyId, from, to };
    }
    const recorded = await this.unitOfWork.changeWithEvent(
      this.transfers.finishChange(finished, total),
      finished.status === 'confirmed' ? TransferConfirmed : TransferFailed,
      finished.id,
      toTransferEvent(finished, publicAmountOf(finished, amount)),
      context,
    );
    if (recorded) {
      if (total) {
        this.keyTotals.remember(total.keyId, total.to);
      }
      return finished;
    }
    const current = await this.transfers.findById(transfer.id);
    if (current?.status === 'pending') {
      // Still pending, so the total had moved on: the transaction reads it under its lock.
      if (keyId !== null) {
        this.keyTotals.forget(keyId);
      }
      return null;
    }
    // Finished by another replica or the reconciler first.
    return current ?? transfer;
  }

  private async finishInTransaction(
    transfer: TransferRecord,
    changes: Outcome,
    amount: bigint,
    context: MessageContext,
  ): Promise<TransferRecord> {
    let total: { keyId: string; value: string } | undefined;
    const finished = await this.unitOfWork.run(async (tx) => {
      const updated = await this.transfers.finishPending(transfer, changes, tx.manager);
      if (updated === null) {
        return (await this.transfers.findById(transfer.id, tx.manager)) ?? transfer;
      }
      if (countsTowardKeyTotal(updated) && updated.apiKeyId !== null) {
        total = {
          keyId: updated.apiKeyId,
          value: await this.keyTotals.add(
            tx,
            updated.sender.account_id,
            updated.environment,
            updated.apiKeyId,
            amount,
          ),
        };
      }
      const event = updated.status === 'confirmed' ? TransferConfirmed : TransferFailed;
      await tx.emit(event, updated.id, toTransferEvent(updated, publicAmountOf(updated, amount)), context);
      return updated;
    });
    if (total) {
      this.keyTotals.remember(total.keyId, total.value);
    }
    return finished;
  }

  private async submit(
    ledger: LedgerPort,
    draft: TransferRecord,
    amount: bigint,
    context: MessageContext,
    { reading, promised }: Funding,
    recorded: Promise<unknown>,
  ): Promise<TransferRecord> {
    let signed: Signature | null = null;
    try {
      const signature = await this.custody.withKeys(
        draft.sender.account_id,
        draft.environment,
        async (keys) => {
          const request = {
            from: keys,
            toOwner: address(draft.recipient.address),
            asset: draft.asset,
            amount,
            onSigned: async (signature: Signature) => {
              await recorded;
              signed = signature;
              await this.transfers.recordSignature(draft.id, signature);
            },
          };
          return (
            draft.confidential
              ? ledger.transferConfidential({ ...request, reading })
              : ledger.transferStandard({ ...request, committed: promised })
          ).then((s) => s.signature);
        },
      );
      return await this.finish(draft, { status: 'confirmed', signature }, amount, context);
    } catch (error) {
      // Until the record exists there is nothing to finish; if it failed, nothing was sent and that
      // failure is the answer (as when it came first).
      await recorded;
      const failure = isLedgerError(error)
        ? classifyLedgerFailure(error.code, signed !== null)
        : { kind: 'undetermined' as const };
      if (failure.kind === 'failed') {
        return this.finish(
          draft,
          { status: 'failed', reason: failure.reason, signature: signed },
          amount,
          context,
        );
      }
      // Sent but unconfirmed (timeout, lost connection): it may still land. The reconciler decides.
      const pending = await this.transfers.findById(draft.id);
      if (pending === null) {
        throw error;
      }
      return pending;
    }
  }

  /**
   * Custody answers from the ledger's AE balance. Received funds sit in the pending balance until
   * applied: applied here, lazily, when the available balance alone is not enough. The reading of a
   * confidential transfer also holds what its proof needs, so the transfer reads nothing again. Null
   * when the balance is not enough.
   *
   * Warning: an agent's public balance is the float its signed x402 payments draw on. What payments
   * signed and not settled yet were promised is not this transfer's to spend: it is read here, under
   * the lock the x402 signer takes, and the ledger is told to leave it in place.
   */
  private async fundedReading(
    ledger: LedgerPort,
    draft: TransferRecord,
    amount: bigint,
    confirmation: PartiesConfirmation,
  ): Promise<Funding | null> {
    const { account_id } = draft.sender;
    // What standard transfers paid in joins the available balance, except an agent's.
    const depositPublic = draft.sender.owner === null;
    const promised =
      draft.confidential || depositPublic
        ? 0n
        : await this.x402Payments.promisedPublic(account_id, draft.environment, draft.asset);
    const sender = address(draft.sender.address);
    const read = (): Promise<ConfidentialTransferReading> =>
      draft.confidential
        ? ledger.readForConfidentialTransfer(sender, address(draft.recipient.address), draft.asset)
        : ledger.readAccount(sender, draft.asset).then((source) => ({ source }));
    // A standard transfer pays from the (unpromised) public balance first, then withdraws the rest.
    const fromConfidential = ({ source }: ConfidentialTransferReading) =>
      draft.confidential || !source.exists
        ? amount
        : amount - min(amount, spendablePublic(source.publicAmount, promised));
    // A stale AE balance cannot be proved against (nor trusted to suffice): it is applied first.
    const suffices = async (reading: ConfidentialTransferReading) =>
      reading.source.confidentialReady &&
      !reading.source.decryptableStale &&
      (await this.custody.canSend(
        account_id,
        draft.environment,
        fromConfidential(reading),
        reading.source.decryptableAvailableBalance,
      ));
    let reading = await read();
    if (await suffices(reading)) {
      return { reading, promised };
    }
    const { source } = reading;
    if (
      !source.confidentialReady ||
      (source.pendingCreditCounter === 0n &&
        !source.decryptableStale &&
        !(depositPublic && source.publicAmount > 0n))
    ) {
      return null;
    }
    // Applying is a transaction: only for a sender account-service has confirmed.
    await assertConfirmed(confirmation);
    await this.custody.withKeys(account_id, draft.environment, (keys) =>
      ledger.applyPendingBalance(keys, draft.asset, { depositPublic }),
    );
    reading = await read();
    return (await suffices(reading)) ? { reading, promised } : null;
  }
}
