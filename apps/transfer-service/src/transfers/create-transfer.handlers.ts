import { Inject, Injectable } from '@nestjs/common';
import {
  amountSealingContext,
  type AccountParty,
  contextFrom,
  CreateTransfer,
  type Envelope,
  fail,
  memoSealingContext,
  ok,
  type RequestOf,
  ResolveParties,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import {
  decodeBase64,
  encryptMemoFor,
  MEMO_MAX_BYTES,
  unseal,
  unsealAmount,
  utf8Decode,
  type SealingKey,
} from '@cts/crypto';
import { Custody } from '@cts/custody';
import { MAX_CONFIDENTIAL_AMOUNT } from '@cts/ledger';
import { CommandBus, OnCommand } from '@cts/messaging';
import { isUniqueViolation } from '@cts/persistence';
import { address } from '@solana/kit';
import { Ledgers } from '../ledger/ledgers';
import { kycAllowsMoney, type TransferRecord, toTransferResource } from './transfer.domain';
import {
  checkAmount,
  needsConfidentialRecipientCheck,
  recipientReadinessRefusal,
  selfSendRefusal,
} from './transfer-rules.domain';
import { AgentGate } from './agent-gate';
import {
  assertConfirmed,
  CONFIRMED,
  KnownParties,
  StartOver,
  type PartiesConfirmation,
} from './known-parties';
import { Reconciler } from './reconciler';
import { Settlement } from './settlement';
import { TransferRepository } from './transfer.repository';
import { DATA_KEY } from '../sealing/data-key';

type Request = RequestOf<typeof CreateTransfer>;
type Created = ResponseOf<typeof CreateTransfer>;
type Resolved = ResponseOf<typeof ResolveParties>;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `POST /v1/transfers` behind the gateway: resolve, check, record, settle (spec §4.1). */
@Injectable()
export class CreateTransferHandlers {
  constructor(
    private readonly commands: CommandBus,
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    private readonly settlement: Settlement,
    private readonly reconciler: Reconciler,
    private readonly transfers: TransferRepository,
    private readonly agentGate: AgentGate,
    private readonly knownParties: KnownParties,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  @OnCommand(CreateTransfer)
  async create(message: Envelope<Request>): Promise<Result<Created>> {
    const request = message.payload;
    const checked = checkAmount(this.openAmount(request), request.asset, MAX_CONFIDENTIAL_AMOUNT);
    if (!checked.ok) {
      return checked;
    }
    const amount = checked.value;
    const memo = this.openMemo(request);
    const likely = memo.ok ? this.knownParties.likely(request) : undefined;
    // With parties to start settling on, the lookups go out a turn later, once the settlement has
    // started (lock, ledger read, proofs): their answers are needed only before its first write.
    const asked = likely
      ? nextTurn().then(() => this.lookUp(message))
      : Promise.resolve(this.lookUp(message));
    if (memo.ok && likely) {
      // Settling starts on the parties this sender's last transfer to `to` had, while the retry
      // lookup and account-service answer. Nothing is written until this is a first attempt and the
      // answer matches them; otherwise it starts again below, on what they said.
      const confirmation = asked
        .then(({ earlier, resolving }) => Promise.all([earlier, resolving]))
        .then(
          ([existing, resolved]) =>
            existing === null && resolved.ok && this.knownParties.confirm(request, resolved.value, likely),
          () => false,
        );
      try {
        return await this.proceed(message, amount, memo.value, likely, confirmation);
      } catch (error) {
        // A failure before anything was written (the ledger unreadable, say) is this transfer's
        // answer only if it was a first attempt between those parties; a retry still gets its first.
        if (!(error instanceof StartOver) && (await confirmation)) {
          throw error;
        }
      }
    }
    const { earlier, resolving } = await asked;
    const existing = await earlier;
    if (existing) {
      return this.answer(await this.reconciler.settleNow(existing, message), request.account_id);
    }
    if (!memo.ok) {
      return memo.result;
    }
    const resolved = await resolving;
    if (!resolved.ok) {
      return resolved;
    }
    this.knownParties.remember(request, resolved.value);
    return this.proceed(message, amount, memo.value, resolved.value, CONFIRMED);
  }

  /**
   * The retry lookup and the parties (a query, no side effects), asked at once: one round trip's
   * wait instead of two. A retry answers with its first transfer and ignores the parties.
   */
  private lookUp(message: Envelope<Request>): {
    earlier: Promise<TransferRecord | null>;
    resolving: Promise<Result<Resolved>>;
  } {
    const request = message.payload;
    const resolving = this.commands.send(
      ResolveParties,
      { sender_account_id: request.account_id, to: request.to, environment: request.environment },
      contextFrom(message),
    );
    resolving.catch(() => undefined);
    const earlier = this.transfers.findExisting(
      message.id,
      request.account_id,
      request.environment,
      request.idempotency_key,
    );
    earlier.catch(() => undefined);
    return { earlier, resolving };
  }

  /** Checks, records and settles a transfer between `parties`, once `confirmation` says they hold. */
  private async proceed(
    message: Envelope<Request>,
    amount: bigint,
    memo: string | null,
    parties: Resolved,
    confirmation: PartiesConfirmation,
  ): Promise<Result<Created>> {
    const request = message.payload;
    const problem = await this.refusal(request, parties);
    if (problem) {
      await assertConfirmed(confirmation);
      return problem;
    }
    const gate = await this.agentGate.check(message, parties.sender, amount);
    if (gate.kind !== 'proceed') {
      await assertConfirmed(confirmation);
      return gate.result;
    }
    // From here an agent's amount is reserved: every way out that moves nothing gives it back.
    let draft: TransferRecord;
    try {
      draft = await this.draft(message, parties, gate.transferId, amount, memo);
    } catch (error) {
      await this.agentGate.releaseFor(parties.sender, gate.transferId, contextFrom(message));
      throw error;
    }
    try {
      const settled = await this.settlement.settle(draft, amount, contextFrom(message), confirmation);
      if (settled.kind === 'insufficient_balance') {
        await assertConfirmed(confirmation);
        await this.agentGate.release(draft, contextFrom(message));
        return fail('insufficient_balance', `The account does not hold enough ${request.asset}`);
      }
      return this.answer(settled.transfer, request.account_id);
    } catch (error) {
      if (isUniqueViolation(error)) {
        // The same Idempotency-Key raced in on another replica: answer with the first transfer.
        const first = await this.transfers.findExisting(
          message.id,
          request.account_id,
          request.environment,
          request.idempotency_key,
        );
        if (first) {
          return this.answer(await this.reconciler.settleNow(first, message), request.account_id);
        }
      }
      if ((await this.transfers.findById(draft.id)) === null) {
        // Nothing was recorded, so nothing can settle later: the reservation goes back now.
        await this.agentGate.release(draft, contextFrom(message));
      }
      throw error;
    }
  }

  /** The memo as the sender wrote it, refused (before any reservation) when encryption would refuse it. */
  private openMemo(
    request: Request,
  ): { ok: true; value: string | null } | { ok: false; result: Result<never> } {
    if (request.sealed_memo === null) {
      return { ok: true, value: null };
    }
    let memo: string;
    try {
      memo = utf8Decode(unseal(this.dataKey, request.sealed_memo, memoSealingContext(request.account_id)));
    } catch {
      return { ok: false, result: fail('invalid_request', 'memo could not be read', { param: 'memo' }) };
    }
    if (Buffer.byteLength(memo, 'utf8') > MEMO_MAX_BYTES) {
      return {
        ok: false,
        result: fail('invalid_request', `memo must be at most ${MEMO_MAX_BYTES} bytes of UTF-8`, {
          param: 'memo',
        }),
      };
    }
    return { ok: true, value: memo };
  }

  private answer(transfer: TransferRecord, reader: string): Result<Created> {
    return ok({ kind: 'transfer', transfer: toTransferResource(transfer, reader) });
  }

  private openAmount(request: Request): bigint | null {
    try {
      return unsealAmount(this.dataKey, request.sealed_amount, amountSealingContext(request.account_id));
    } catch {
      return null;
    }
  }

  private async refusal(request: Request, { sender, recipient }: Resolved): Promise<Result<never> | null> {
    if (!kycAllowsMoney(sender.kyc_status)) {
      return fail('kyc_required', 'Transfers need a verified account (KYC)');
    }
    const selfSend = selfSendRefusal(sender, recipient);
    if (selfSend) {
      return selfSend;
    }
    if (needsConfidentialRecipientCheck(recipient, request.confidential)) {
      const ledger = await this.ledgers.of(request.environment);
      const view = await ledger.readAccount(address(recipient.address), request.asset);
      return recipientReadinessRefusal(view.confidentialReady);
    }
    return null;
  }

  private async draft(
    message: Envelope<Request>,
    { sender, recipient }: Resolved,
    transferId: string,
    amount: bigint,
    memo: string | null,
  ): Promise<TransferRecord> {
    const request = message.payload;
    const now = new Date();
    const recipientAccount: AccountParty | null = recipient.kind === 'account' ? recipient : null;
    return {
      id: transferId,
      environment: request.environment,
      commandId: message.id,
      idempotencyKey: request.idempotency_key,
      apiKeyId: request.api_key_id,
      sender: {
        account_id: sender.account_id,
        handle: sender.handle,
        address: sender.address,
        owner: sender.owner,
      },
      recipient: {
        account_id: recipientAccount?.account_id ?? null,
        handle: recipientAccount?.handle ?? null,
        address: recipient.address,
        owner: recipientAccount?.owner ?? null,
      },
      to: request.to,
      asset: request.asset,
      confidential: request.confidential,
      status: 'pending',
      sealedAmount: request.sealed_amount,
      senderEncryptedAmount: await this.custody.encryptAmountFor(
        sender.account_id,
        request.environment,
        amount,
      ),
      recipientEncryptedAmount: recipientAccount
        ? await this.custody.encryptAmountFor(recipientAccount.account_id, request.environment, amount)
        : null,
      senderEncryptedMemo:
        memo === null ? null : encryptMemoFor(await this.elgamalKeyOf(sender.account_id, request), memo),
      recipientEncryptedMemo:
        memo === null || !recipientAccount
          ? null
          : encryptMemoFor(await this.elgamalKeyOf(recipientAccount.account_id, request), memo),
      chainSignature: null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
      confirmedAt: null,
    };
  }

  private async elgamalKeyOf(accountId: string, request: Request): Promise<Uint8Array> {
    const key = decodeBase64((await this.custody.publicKeys(accountId, request.environment)).elgamalPubkey);
    if (!key) {
      throw new Error(`custody holds no readable ElGamal key for ${accountId}`);
    }
    return key;
  }
}
