import { type DispatcherSettings } from '../dispatcher.settings';
import { type AttemptReport, type DeliveryAttempter } from './delivery-attempter';
import { DeliveryScheduler } from './delivery-scheduler';
import { type WebhookHttpClient } from './webhook-http-client';

/** An attempter whose attempts end when the test says so; counts how many were started. */
class ScriptedAttempter {
  started = 0;
  full = new Set<string>();
  private endings: ((report: AttemptReport) => void)[] = [];

  attemptNext(): Promise<AttemptReport> {
    this.started += 1;
    return new Promise((resolve) => this.endings.push(resolve));
  }

  hasRoomFor(endpoint: string): boolean {
    return !this.full.has(endpoint);
  }

  onSlotFreed(): void {}

  offerRoom(): boolean {
    return false;
  }

  /** Ends every attempt in flight with `report`. */
  endAll(report: AttemptReport): void {
    const endings = this.endings;
    this.endings = [];
    endings.forEach((end) => end(report));
  }

  inFlight(): number {
    return this.endings.length;
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('DeliveryScheduler', () => {
  let attempter: ScriptedAttempter;
  let scheduler: DeliveryScheduler;

  beforeEach(() => {
    attempter = new ScriptedAttempter();
    // A poll interval longer than any test: a lane attempts only when woken.
    const settings = { maxConcurrentAttempts: 3, pollIntervalMs: 60_000 } as DispatcherSettings;
    scheduler = new DeliveryScheduler(
      attempter as unknown as DeliveryAttempter,
      {} as WebhookHttpClient,
      settings,
    );
    scheduler.onApplicationBootstrap();
  });

  afterEach(async () => {
    const stopping = scheduler.onModuleDestroy();
    attempter.endAll('idle');
    await stopping;
  });

  it('starts every lane once, then lets lanes that found nothing sleep', async () => {
    expect(attempter.started).toBe(3);
    attempter.endAll('idle');
    await settle();
    expect(attempter.started).toBe(3);
  });

  it('lets a lane sleep after an attempt, and one kick wake exactly one lane', async () => {
    attempter.endAll('succeeded');
    await settle();
    expect(attempter.started).toBe(3);
    scheduler.kick(1);
    await settle();
    expect(attempter.started).toBe(4);
    scheduler.kick(2);
    await settle();
    expect(attempter.started).toBe(6);
  });

  it('keeps a kick that finds every lane busy, for the next lane to finish', async () => {
    scheduler.kick(1);
    await settle();
    expect(attempter.started).toBe(3);
    attempter.endAll('succeeded');
    await settle();
    // One of the three finished lanes takes the kept wake-up; the other two sleep.
    expect(attempter.started).toBe(4);
    expect(attempter.inFlight()).toBe(1);
  });

  it('keeps no more wake-ups than there are lanes', async () => {
    scheduler.kick(10);
    attempter.endAll('idle');
    await settle();
    expect(attempter.started).toBe(6);
    attempter.endAll('idle');
    await settle();
    expect(attempter.started).toBe(6);
  });

  it('wakes a lane per endpoint with room that has new deliveries, none for a full one', async () => {
    attempter.endAll('idle');
    await settle();
    attempter.full.add('https://full.example');
    scheduler.kickFor([
      'https://full.example',
      'https://open.example',
      'https://full.example',
      'https://open.example',
      'https://other.example',
    ]);
    await settle();
    expect(attempter.started).toBe(5);
  });
});

describe('DeliveryScheduler poll', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  async function started(lanes: number) {
    const attempter = new ScriptedAttempter();
    const settings = { maxConcurrentAttempts: lanes, pollIntervalMs: 1_000 } as DispatcherSettings;
    const scheduler = new DeliveryScheduler(
      attempter as unknown as DeliveryAttempter,
      {} as WebhookHttpClient,
      settings,
    );
    scheduler.onApplicationBootstrap();
    attempter.endAll('idle');
    await settle();
    return { attempter, scheduler };
  }

  const tick = async () => {
    jest.advanceTimersByTime(1_000);
    await Promise.resolve();
    await Promise.resolve();
  };

  it('wakes one lane per interval at rest, not every lane', async () => {
    const { attempter, scheduler } = await started(4);
    expect(attempter.started).toBe(4);
    for (let i = 1; i <= 3; i++) {
      await tick();
      expect(attempter.started).toBe(4 + i);
      attempter.endAll('idle');
      await Promise.resolve();
      await Promise.resolve();
    }
    const stopping = scheduler.onModuleDestroy();
    attempter.endAll('idle');
    await stopping;
  });

  it('wakes every lane at the next interval once an attempt found a delivery due', async () => {
    const { attempter, scheduler } = await started(4);
    await tick();
    expect(attempter.started).toBe(5);
    attempter.endAll('failed'); // a retry came due
    await Promise.resolve();
    await Promise.resolve();
    await tick();
    expect(attempter.started).toBe(9);
    const stopping = scheduler.onModuleDestroy();
    attempter.endAll('idle');
    await stopping;
  });

  it('stops polling when the module is destroyed', async () => {
    const { attempter, scheduler } = await started(2);
    await scheduler.onModuleDestroy();
    jest.advanceTimersByTime(5_000);
    expect(attempter.started).toBe(2);
  });
});
