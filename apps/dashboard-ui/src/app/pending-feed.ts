import { type CtsClient, type PendingApproval } from '@cts/sdk';

export type PendingListener = (pending: readonly PendingApproval[]) => void;
export type PendingErrorListener = (error: unknown) => void;

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
      for (const listener of this.listeners) {
        listener(pending);
      }
    } catch (error) {
      if (!this.stopped) {
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
