import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { DeliveryAttempter } from './delivery-attempter';
import { EndpointSlots } from './endpoint-slots';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { WebhookHttpClient } from './webhook-http-client';

/**
 * Each replica polls for due attempts and claims at most as many as it has free slots, and per
 * endpoint at most `maxInFlightPerEndpoint` in flight (per replica), so a hanging receiver cannot
 * take every slot; claims are exclusive across replicas (`FOR … SKIP LOCKED` plus a lease). A new
 * delivery, and every attempt that ends, kicks the loop so due work does not wait for the next poll.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryScheduler.name);
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly endpoints: EndpointSlots;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private kicked = false;
  private stopped = true;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly attempter: DeliveryAttempter,
    private readonly client: WebhookHttpClient,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {
    this.endpoints = new EndpointSlots(settings.maxInFlightPerEndpoint);
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stop claiming, then let the attempts in flight finish (their transactions need the database). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }

  /** Look for due attempts now: a delivery was just created. */
  kick(): void {
    this.kicked = true;
    if (!this.stopped && !this.ticking) {
      this.schedule(0);
    }
  }

  /** Claims and starts what is due; resolves once claimed (not when the attempts end). */
  async tick(): Promise<number> {
    const free = this.settings.maxConcurrentAttempts - this.inFlight.size;
    if (free <= 0 || this.stopped) {
      return 0;
    }
    const now = this.settings.clock.now();
    const token = randomUUID();
    const leaseUntil = new Date(now.getTime() + this.settings.leaseMs);
    const claimed = await this.deliveries.claimDue(now, free, leaseUntil, token, this.endpoints.room());
    for (const { id, endpoint } of claimed) {
      this.endpoints.acquire(endpoint);
      const attempt = this.attempter
        .attempt(id, token)
        .catch((error: unknown) =>
          this.logger.error(`delivery ${id}: attempt failed to run: ${String(error)}`),
        )
        .finally(() => {
          this.inFlight.delete(attempt);
          this.endpoints.release(endpoint);
          this.kick();
        });
      this.inFlight.add(attempt);
    }
    return claimed.length;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.kicked = false;
      this.ticking = this.tick()
        .then(
          (claimed) => {
            // A full batch may mean more is due: go again as soon as a slot frees up (kick).
            if (claimed > 0 && this.inFlight.size < this.settings.maxConcurrentAttempts) {
              this.kicked = true;
            }
          },
          (error: unknown) => this.logger.error(`claiming due deliveries failed, retrying: ${String(error)}`),
        )
        .finally(() => {
          this.ticking = undefined;
          if (!this.stopped) {
            this.schedule(this.kicked ? 0 : this.settings.pollIntervalMs);
          }
        });
    }, delayMs);
    this.timer.unref();
  }
}
