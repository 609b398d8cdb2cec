import { Inject, Injectable, Logger } from '@nestjs/common';
import { webhookAttempts, type WebhookAttemptOutcome } from '@cts/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { deliveryHeaders } from '../signing/webhook-signature.domain';
import { EndpointHealth } from '../subscriptions/endpoint-health';
import { signingSecrets } from '../subscriptions/endpoint-health.domain';
import { SecretBox } from '../subscriptions/secret-box';
import { afterAttempt, type AttemptOutcome, isSuccess, withoutRetry } from './attempt.domain';
import {
  type AttemptRecord,
  DeliveryRepository,
  type LockedDelivery,
} from '../deliveries/delivery.repository';
import { type ClaimPlan, EndpointSlots, PROMPT_ANSWER_MS } from './endpoint-slots';
import { WebhookHttpClient } from './webhook-http-client';

/** What one call did: the state after its batch's first attempt, or `idle` when nothing was due. */
export type AttemptReport = 'succeeded' | 'pending' | 'failed' | 'idle';

/** A batch stops taking new deliveries after this many, or after FILL_MS: then it records and commits. */
export const BATCH_LIMIT = 64;
const FILL_MS = 200;

/** A batch in its transaction: its attempts in flight, their records, and its own answers. */
class Batch {
  filling = true;
  inFlight = 0;
  /** Answers (freed slots, by endpoint if known) the filling loop has not claimed again yet. */
  private readonly unclaimed: (string | undefined)[] = [];
  readonly records: AttemptRecord[] = [];
  /** Ids of the deliveries this batch's transaction holds (its own locks do not make it skip them). */
  readonly claimed: string[] = [];
  private wake: (() => void) | undefined;

  /**
   * Resolves once a slot has freed up for it (one of its own answers, or one handed over) since the
   * last call, with the endpoint it freed up at when known.
   */
  async nextAnswer(): Promise<string | undefined> {
    if (this.unclaimed.length === 0) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.unclaimed.shift();
  }

  get unclaimedAnswers(): number {
    return this.unclaimed.length;
  }

  /** Whether it is waiting for room to claim more. */
  get waiting(): boolean {
    return this.wake !== undefined;
  }

  answered(endpoint: string): void {
    this.inFlight -= 1;
    this.roomFreed(endpoint);
  }

  roomFreed(endpoint: string | undefined): void {
    this.unclaimed.push(endpoint);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * Makes due attempts in batches: one transaction claims deliveries as its endpoints have room (up
 * to BATCH_LIMIT, for at most FILL_MS; several per claim when several slots are free), sends each
 * as its endpoint has a free connection, and records all the attempts in one statement once all
 * are answered, then commits. Holding the locks while sending
 * is what makes DELETE final: it waits for the attempts in flight and then no other starts. If the
 * process dies mid-batch the transaction rolls back with its connection and its deliveries are due
 * again for any replica (at least once: an answered but unrecorded attempt is made again).
 */
@Injectable()
export class DeliveryAttempter {
  private readonly logger = new Logger(DeliveryAttempter.name);
  private readonly endpoints: EndpointSlots;
  private claiming: Promise<unknown> = Promise.resolve();
  /** Batches still taking deliveries: room that frees up goes to one of them before waking a lane. */
  private readonly filling = new Set<Batch>();
  private slotFreed: () => void = () => undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly secrets: SecretBox,
    private readonly client: WebhookHttpClient,
    private readonly health: EndpointHealth,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {
    this.endpoints = new EndpointSlots(settings.maxInFlightPerEndpoint);
  }

  /** Whether an attempt to `endpoint` may start now on this replica. */
  hasRoomFor(endpoint: string): boolean {
    return this.endpoints.hasRoom(endpoint);
  }

  /** Called whenever an endpoint's slot frees up and no filling batch takes it: another may go now. */
  onSlotFreed(listener: () => void): void {
    this.slotFreed = listener;
  }

  /**
   * There may be room for one more attempt (a new delivery, a freed slot): a batch waiting for room
   * claims it, in its open transaction; false when none is waiting (then a lane should look).
   */
  offerRoom(endpoint?: string): boolean {
    for (const batch of this.filling) {
      if (batch.waiting) {
        batch.roomFreed(endpoint);
        return true;
      }
    }
    return false;
  }

  private roomFreed(endpoint?: string): void {
    if (!this.offerRoom(endpoint)) {
      this.slotFreed();
    }
  }

  async attemptNext(): Promise<AttemptReport> {
    const batch = new Batch();
    const sending: Promise<void>[] = [];
    try {
      const report = await this.dataSource.transaction(async (manager) => {
        this.filling.add(batch);
        const stoppedEarly = await this.fill(batch, manager, sending);
        batch.filling = false;
        this.filling.delete(batch);
        if (stoppedEarly) {
          // Slots its attempts freed that it will not claim: other batches or lanes may.
          for (let i = batch.unclaimedAnswers; i > 0; i--) {
            this.roomFreed(await batch.nextAnswer());
          }
        }
        await Promise.all(sending);
        await this.deliveries.recordAttempts(batch.records, manager);
        return batch.records[0]?.result.status ?? 'idle';
      });
      await this.checkHealth(batch.records);
      return report;
    } finally {
      // Whatever happened, no attempt of this batch holds a slot any more.
      batch.filling = false;
      this.filling.delete(batch);
      await Promise.allSettled(sending);
    }
  }

  /**
   * Claims and sends until the batch is full or its time is up (true), or nothing more is due for
   * it (false). After a claim that filled its endpoints, the next claim waits for one of the
   * batch's own answers: it frees the slot this batch then claims again, so a busy endpoint is not
   * claimed for in vain (nor does a sleeping lane wake up for it). For a prompt endpoint the batch
   * claims again only once its claimed-ahead deliveries run low, and then all its room at once.
   */
  private async fill(batch: Batch, manager: EntityManager, sending: Promise<void>[]): Promise<boolean> {
    const started = performance.now();
    let freedAt: string | undefined;
    while (batch.claimed.length < BATCH_LIMIT && performance.now() - started < FILL_MS) {
      const plan = this.endpoints.planAfter(freedAt);
      const claimed = plan ? await this.claim(batch, plan, manager) : [];
      for (const delivery of claimed) {
        const attempt = this.attempt(delivery, batch);
        // Handled now (it fails the batch through Promise.all), though awaited only later.
        attempt.catch(() => undefined);
        sending.push(attempt);
      }
      const roomLeft = claimed.find((delivery) => this.endpoints.hasRoom(delivery.endpoint));
      if (roomLeft && claimed.length === plan?.limit) {
        freedAt = roomLeft.endpoint;
        continue;
      }
      if (claimed.length === 0 && batch.inFlight === 0) {
        return false;
      }
      freedAt = await batch.nextAnswer();
    }
    return true;
  }

  /**
   * After the commit: each attempted endpoint's failure clock (a write only when it starts, stops
   * or disables), in attempt order.
   */
  private async checkHealth(records: readonly AttemptRecord[]): Promise<void> {
    for (const { delivery, outcome, attemptedAt } of records) {
      try {
        await this.health.afterAttempt(
          {
            subscriptionId: delivery.subscriptionId,
            accountId: delivery.accountId,
            environment: delivery.environment,
            url: delivery.url,
            body: delivery.body,
            failingSince: delivery.failingSince,
          },
          isSuccess(outcome),
          attemptedAt,
        );
      } catch (error: unknown) {
        // The next attempt checks again: a missed update only delays the clock by one attempt.
        this.logger.error(`endpoint health of webhook ${delivery.subscriptionId}: ${String(error)}`);
      }
    }
  }

  /**
   * One claim at a time on this replica, so the per-endpoint count it claims against is exact; the
   * endpoints' slots are taken before the next claim can look. A claim takes as many deliveries as
   * every endpoint it may reach has room for (several after a burst of answers).
   */
  private claim(batch: Batch, plan: ClaimPlan, manager: EntityManager): Promise<LockedDelivery[]> {
    const claimed = this.claiming.then(async () => {
      // Planned before waiting for the claim before it: the room may be less now.
      const { only, limit } = this.endpoints.planAfter(plan.only ?? undefined) ?? { only: null, limit: 0 };
      const room = Math.min(limit, BATCH_LIMIT - batch.claimed.length);
      if (room <= 0) {
        return [];
      }
      const deliveries = await this.deliveries.claimDue(
        this.settings.clock.now(),
        { limit: room, only },
        this.endpoints.full(),
        batch.claimed,
        manager,
      );
      for (const delivery of deliveries) {
        this.endpoints.claimed(delivery.endpoint);
        batch.claimed.push(delivery.id);
      }
      return deliveries;
    });
    this.claiming = claimed.catch(() => undefined);
    return claimed;
  }

  /**
   * Signs and sends one delivery once its endpoint has a free connection; the slot is free again as
   * soon as the receiver is done with it.
   */
  private async attempt(delivery: LockedDelivery, batch: Batch): Promise<void> {
    batch.inFlight += 1;
    let outcome: AttemptOutcome | undefined;
    let attemptedAt: Date;
    const answered = await this.endpoints.startSending(delivery.endpoint);
    if (!answered) {
      // Given back unsent (its endpoint turned slow): left as it was, due again once the batch ends.
      batch.inFlight -= 1;
      return;
    }
    try {
      attemptedAt = this.settings.clock.now();
      const [secret = '', ...alsoSignedWith] = signingSecrets(
        this.secrets.unseal(delivery.subscriptionId, delivery.secretSealed),
        delivery.previousSecret && delivery.previousSecret.expiresAt > attemptedAt
          ? {
              secret: this.secrets.unseal(delivery.subscriptionId, delivery.previousSecret.sealed),
              expiresAt: delivery.previousSecret.expiresAt,
            }
          : null,
        attemptedAt,
      );
      const headers = deliveryHeaders({
        secret,
        alsoSignedWith,
        webhookId: delivery.eventId,
        timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
        body: delivery.body,
        userAgent: this.settings.userAgent,
      });
      outcome = await this.client.post(delivery.url, delivery.body, headers);
    } finally {
      answered(outcome !== undefined && outcome.statusCode !== null && outcome.durationMs < PROMPT_ANSWER_MS);
      // A filling batch claims the freed slot itself; otherwise another batch or a sleeping lane may.
      const claimsItself = batch.filling;
      batch.answered(delivery.endpoint);
      if (!claimsItself) {
        this.roomFreed(delivery.endpoint);
      }
    }
    const scheduled = afterAttempt(delivery, outcome, attemptedAt, this.settings.retry, this.settings.random);
    const result =
      delivery.eventType === 'webhook.test' && delivery.endpointDisabled
        ? withoutRetry(scheduled)
        : scheduled;
    batch.records.push({ delivery, attemptedAt, outcome, result });
    const counted: WebhookAttemptOutcome = isSuccess(outcome)
      ? 'succeeded'
      : outcome.statusCode === null
        ? 'no_response'
        : 'failed';
    webhookAttempts.inc({ outcome: counted });
    if (result.status !== 'succeeded') {
      this.logger.warn(
        `delivery ${delivery.id} attempt ${result.attemptCount} failed (${outcome.statusCode ?? outcome.error ?? 'no answer'}): ${
          result.status === 'failed'
            ? `giving up (${result.failureReason})`
            : `next at ${result.nextAttemptAt?.toISOString()}`
        }`,
      );
    }
  }
}
