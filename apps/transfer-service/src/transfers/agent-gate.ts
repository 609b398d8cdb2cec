import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type AccountParty,
  contextFrom,
  type CreateTransfer,
  type Envelope,
  EvaluateAgentSpend,
  HoldAgentTransaction,
  type MessageContext,
  newId,
  ok,
  type RequestOf,
  ReleaseSpendReservation,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { CommandBus, withFreshDeadline } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { Custody } from '@cts/custody';
import { UnitOfWork } from '@cts/persistence';
import { type TransferRecord } from './transfer.domain';

type Request = RequestOf<typeof CreateTransfer>;
type Created = ResponseOf<typeof CreateTransfer>;

export type GateOutcome = { kind: 'proceed'; transferId: string } | { kind: 'stop'; result: Result<Created> };

type Decided = { outcome: 'proceed'; transferId: string } | { outcome: 'stop'; result: Result<Created> };

/**
 * One agent spend as the policy sees it: a transfer, or an x402 payment (`to` is the resource's host,
 * `pay_to` its payee address, `resource` the URL it pays for). `reservation_id` names the spend
 * everywhere: the daily-counter reservation, the held transaction's reservation, and the transfer or
 * payment it becomes.
 */
export interface AgentSpend {
  environment: Request['environment'];
  to: string;
  pay_to?: string;
  /** An x402 payment's resource: with `pay_to`, what its owner is shown when it is held. */
  resource?: string;
  asset: Request['asset'];
  confidential: boolean;
  sealed_amount: string;
  sealed_memo: string | null;
  api_key_id: string | null;
  reservation_id: string;
  /** An owner approved this spend: re-check the policy, never hold it again. */
  approved: boolean;
}

/**
 * Every transfer by an agent passes its spend policy before anything is signed (issue 4): denied
 * (`403 policy_violation`), held for its owner (`202`, nothing moves), or allowed with the amount
 * reserved against the daily limit under the transfer's id. The decision is kept in the inbox, so a
 * redelivered command neither holds twice nor reserves under another id.
 */
@Injectable()
export class AgentGate {
  private readonly logger = new Logger(AgentGate.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly custody: Custody,
    private readonly unitOfWork: UnitOfWork,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  async check(message: Envelope<Request>, sender: AccountParty, amount: bigint): Promise<GateOutcome> {
    const request = message.payload;
    if (sender.type !== 'agent') {
      return { kind: 'proceed', transferId: request.approved_transfer_id ?? newId('tr') };
    }
    return this.checkSpend(message, sender, amount, () => ({
      environment: request.environment,
      to: request.to,
      asset: request.asset,
      confidential: request.confidential,
      sealed_amount: request.sealed_amount,
      sealed_memo: request.sealed_memo,
      api_key_id: request.api_key_id,
      reservation_id: request.approved_transfer_id ?? newId('tr'),
      approved: request.approved_transfer_id !== null,
    }));
  }

  /**
   * The gate for any agent spend (transfers and x402 payments alike). `spend` is called once per
   * message: a redelivered message gets the first decision, under the first reservation id.
   */
  async checkSpend(
    message: Envelope<unknown>,
    sender: AccountParty,
    amount: bigint,
    spend: () => AgentSpend,
  ): Promise<GateOutcome> {
    const { value } = await this.unitOfWork.once(message, `${this.consumer}:agent-gate`, () =>
      this.decide(message, sender, amount, spend()),
    );
    return value.outcome === 'proceed'
      ? { kind: 'proceed', transferId: value.transferId }
      : { kind: 'stop', result: value.result };
  }

  /** An agent's transfer that will not settle gives its reservation back (idempotent on the other side). */
  async release(transfer: TransferRecord, context: MessageContext): Promise<void> {
    if (transfer.sender.owner === null) {
      return;
    }
    await this.releaseReservation(transfer.id, context);
  }

  /** The same, for a transfer that failed before it was recorded. */
  async releaseFor(sender: AccountParty, transferId: string, context: MessageContext): Promise<void> {
    if (sender.type === 'agent') {
      await this.releaseReservation(transferId, context);
    }
  }

  private async releaseReservation(transferId: string, context: MessageContext): Promise<void> {
    // Nothing retries this release: it goes out even when the transfer's deadline has passed.
    const released = await this.commands.send(
      ReleaseSpendReservation,
      { reservation_id: transferId },
      withFreshDeadline(context),
    );
    if (!released.ok) {
      this.logger.warn(`could not release the spend reservation of ${transferId}: ${released.error.code}`);
    }
  }

  private async decide(
    message: Envelope<unknown>,
    sender: AccountParty,
    amount: bigint,
    request: AgentSpend,
  ): Promise<Decided> {
    const context = contextFrom(message);
    const transferId = request.reservation_id;
    const evaluation = await this.commands.send(
      EvaluateAgentSpend,
      {
        agent_account_id: sender.account_id,
        environment: request.environment,
        reservation_id: transferId,
        to: request.to,
        ...(request.pay_to === undefined ? {} : { pay_to: request.pay_to }),
        asset: request.asset,
        sealed_amount: request.sealed_amount,
        mode: request.approved ? 'approval_recheck' : 'attempt',
      },
      context,
    );
    if (!evaluation.ok) {
      return { outcome: 'stop', result: evaluation };
    }
    const decision = evaluation.value;
    if (decision.decision !== 'hold') {
      return { outcome: 'proceed', transferId };
    }
    const held = await this.commands.send(
      HoldAgentTransaction,
      {
        environment: request.environment,
        agent: decision.agent,
        owner: decision.owner,
        to: request.to,
        asset: request.asset,
        confidential: request.confidential,
        sealed_amount: request.sealed_amount,
        sealed_memo: request.sealed_memo,
        api_key_id: request.api_key_id,
        reservation_id: transferId,
        approval_window_minutes: decision.approval_window_minutes,
        owner_encrypted_amount: await this.custody.encryptAmountFor(
          decision.owner.account_id,
          request.environment,
          amount,
        ),
        requested_at: message.occurred_at,
        // The owner must see who an x402 payment pays and for what: `to` is only the resource's host.
        x402:
          request.pay_to === undefined || request.resource === undefined
            ? null
            : { pay_to: request.pay_to, resource: request.resource },
      },
      context,
    );
    if (!held.ok) {
      await this.releaseReservation(transferId, context);
      return { outcome: 'stop', result: held };
    }
    return { outcome: 'stop', result: ok({ kind: 'held', transaction: held.value }) };
  }
}
