import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { DeliveryAttempter } from './delivery-attempter';
import { WebhookHttpClient } from './webhook-http-client';

/**
 * `maxConcurrentAttempts` lanes per replica. A lane makes an attempt when woken: by a wake-up (a new
 * delivery to an endpoint with room, or a freed endpoint slot) or by the poll (a retry coming due).
 * A wake-up that finds no lane asleep is kept, and the next lane to finish takes it; otherwise a
 * lane sleeps after its attempt. So one freed slot starts one claim: with more lanes than room,
 * lanes no longer claim in vain (a quarter of all claims did, each a transaction). Each attempt
 * claims its own delivery (`FOR … SKIP LOCKED`), so any number of lanes and replicas share the work;
 * per endpoint at most `maxInFlightPerEndpoint` are in flight per replica.
 *
 * The poll is one timer per replica: each interval it wakes one lane while the last look found
 * nothing (at rest, one claim a second, not one per lane), and every lane while attempts were due.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryScheduler.name);
  /** Sleeping lanes' wake-ups, oldest first. */
  private readonly idleLanes = new Set<() => void>();
  private lanes: Promise<void>[] = [];
  /** Wake-ups no sleeping lane was there to take: the next lanes to finish look again instead of sleeping. */
  private pendingWakeUps = 0;
  private stopped = true;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Whether the last attempt found a delivery due: then the next poll wakes every lane. */
  private foundWork = false;

  constructor(
    private readonly attempter: DeliveryAttempter,
    private readonly client: WebhookHttpClient,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {
    // One freed slot makes room for one attempt: one lane looks, the others sleep on.
    attempter.onSlotFreed(() => this.kick(1));
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.lanes = Array.from({ length: this.settings.maxConcurrentAttempts }, () => this.runLane());
    this.pollTimer = setInterval(
      () => this.kick(this.foundWork ? this.settings.maxConcurrentAttempts : 1),
      this.settings.pollIntervalMs,
    );
    this.pollTimer.unref();
  }

  /** Stop taking attempts, then let the ones in flight finish (their transactions need the database). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    this.wakeIdleLanes();
    await Promise.all(this.lanes);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  /** Look for due attempts now: `attempts` more may have become possible, so as many lanes look. */
  kick(attempts = 1): void {
    for (let i = 0; i < attempts; i++) {
      if (!this.wakeOneLane()) {
        // More kept than there are lanes would only make lanes claim in vain.
        this.pendingWakeUps = Math.min(this.pendingWakeUps + 1, this.settings.maxConcurrentAttempts);
      }
    }
  }

  /**
   * New deliveries to these endpoints (one entry each): a filling batch or a lane looks once for
   * each endpoint with room on this replica; its first claim goes on claiming while it comes back
   * full (for a prompt endpoint, all its room at once), so a burst of one endpoint's deliveries
   * does not wake every lane to claim a few each. A full endpoint's deliveries are taken when one
   * of its slots frees up.
   */
  kickFor(endpoints: string[]): void {
    for (const endpoint of new Set(endpoints)) {
      // A batch waiting for room takes it in its open transaction; else a lane looks.
      if (this.attempter.hasRoomFor(endpoint) && !this.attempter.offerRoom(endpoint)) {
        this.kick(1);
      }
    }
  }

  private async runLane(): Promise<void> {
    while (!this.stopped) {
      let report: string;
      try {
        report = await this.attempter.attemptNext();
      } catch (error) {
        this.logger.error(`making an attempt failed, retrying: ${String(error)}`);
        report = 'error';
      }
      this.foundWork = report !== 'idle' && report !== 'error';
      if (this.stopped) {
        return;
      }
      if (report !== 'error' && this.pendingWakeUps > 0) {
        this.pendingWakeUps -= 1;
      } else {
        await this.sleep();
      }
    }
  }

  /** Until a wake-up: a kick, or the poll. */
  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.idleLanes.delete(wake);
        resolve();
      };
      this.idleLanes.add(wake);
    });
  }

  private wakeOneLane(): boolean {
    const [wake] = this.idleLanes;
    wake?.();
    return wake !== undefined;
  }

  private wakeIdleLanes(): void {
    for (const wake of [...this.idleLanes]) {
      wake();
    }
  }
}
