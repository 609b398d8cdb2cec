import { type CtsClient, type PendingApproval } from '@cts/sdk';

export type PendingListener = (pending: readonly PendingApproval[]) => void;
export type PendingErrorListener = (error: unknown) => void;
/** `loading` until the first answer; `failed` while the latest poll failed (`current` is then stale or absent). */
export type PendingStatus = 'loading' | 'loaded' | 'failed';

/**
 * Polls `GET /v1/agents/transactions/pending` while signed in (not while the tab is hidden) and tells
 * every subscriber: the inbox and the count in the navigation update without a reload.
 */
export class PendingFeed {
  private readonly listeners = new Set<PendingListener>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private latest: readonly PendingApproval[] | undefined;
  private inFlight: Promise<void> | undefined;
  private lastFailed = false;

  constructor(
    private readonly client: CtsClient,
    private readonly onError: PendingErrorListener,
    private readonly intervalMs = 5_000,
  ) {
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  get current(): readonly PendingApproval[] | undefined {
    return this.latest;
  }

  get status(): PendingStatus {
    return this.lastFailed ? 'failed' : this.latest ? 'loaded' : 'loading';
  }

  subscribe(listener: PendingListener): () => void {
    this.listeners.add(listener);
    if (this.latest) {
      listener(this.latest);
    }
    return () => this.listeners.delete(listener);
  }

  /** Polls now (after a decision, or on start) and resumes the schedule. */
  refresh(): Promise<void> {
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.listeners.clear();
  }

  private async poll(): Promise<void> {
    clearTimeout(this.timer);
    try {
      const { pending } = await this.client.pendingTransactions();
      if (this.stopped) {
        return;
      }
      this.latest = pending;
      this.lastFailed = false;
      for (const listener of this.listeners) {
        listener(pending);
      }
    } catch (error) {
      if (!this.stopped) {
        this.lastFailed = true;
        this.onError(error);
      }
    } finally {
      if (!this.stopped && !document.hidden) {
        this.timer = setTimeout(() => void this.refresh(), this.intervalMs);
      }
    }
  }

  private readonly onVisibility = () => {
    if (!document.hidden && !this.stopped) {
      void this.refresh();
    }
  };
}
