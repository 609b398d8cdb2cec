import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DISPATCHER_SETTINGS, type DispatcherSettings } from '../dispatcher.settings';
import { EventRepository } from './event.repository';

/** Stored events are kept 30 days for replay; their deliveries go with them. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const retentionCutoff = (now: Date): Date => new Date(now.getTime() - EVENT_RETENTION_MS);

/** Runs the purge at start and then periodically, on every replica (the deletes are idempotent). */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventRetention.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly events: EventRepository,
    @Inject(DISPATCHER_SETTINGS) private readonly settings: DispatcherSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), this.settings.retentionIntervalMs);
    this.timer.unref();
    void this.run();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One purge; returns the number of events dropped. */
  async purge(): Promise<number> {
    return this.events.purgeBefore(retentionCutoff(this.settings.clock.now()));
  }

  private async run(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = this.purge()
      .then((dropped) => dropped > 0 && this.logger.log(`dropped ${dropped} event(s) older than 30 days`))
      .catch((error: unknown) => this.logger.error(`event retention failed: ${String(error)}`))
      .finally(() => (this.running = undefined));
    await this.running;
  }
}
