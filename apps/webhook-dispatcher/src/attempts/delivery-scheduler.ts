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
 * `maxConcurrentAttempts` lanes per replica, each making one attempt after another while any is
 * due, then waiting for a kick (a new delivery) or the poll interval (a retry coming due). Each
 * attempt claims its own delivery (`FOR … SKIP LOCKED`), so any number of lanes and replicas share
 * the work; per endpoint at most `maxInFlightPerEndpoint` are in flight per replica.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryScheduler.name);
  /** Sleeping lanes' wake-ups, oldest first. */
  private readonly idleLanes = new Set<() => void>();
  private lanes: Promise<void>[] = [];
  /** Counts kicks (new deliveries, freed slots), so a lane that found nothing just before one looks again. */
  private kicks = 0;
  private stopped = true;

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
  }

  /** Stop taking attempts, then let the ones in flight finish (their transactions need the database). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.wakeIdleLanes();
    await Promise.all(this.lanes);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  /** Look for due attempts now: `deliveries` were just created, so as many lanes wake up. */
  kick(deliveries = 1): void {
    this.kicks += 1;
    for (let i = 0; i < deliveries; i++) {
      this.wakeOneLane();
    }
  }

  private async runLane(): Promise<void> {
    while (!this.stopped) {
      const kicksBefore = this.kicks;
      let report: string;
      try {
        report = await this.attempter.attemptNext();
      } catch (error) {
        this.logger.error(`making an attempt failed, retrying: ${String(error)}`);
        report = 'error';
      }
      const idle = report === 'idle' && this.kicks === kicksBefore;
      if ((idle || report === 'error') && !this.stopped) {
        await this.sleep(this.settings.pollIntervalMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.idleLanes.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.idleLanes.add(wake);
    });
  }

  private wakeOneLane(): void {
    const [wake] = this.idleLanes;
    wake?.();
  }

  private wakeIdleLanes(): void {
    for (const wake of [...this.idleLanes]) {
      wake();
    }
  }
}
