/**
 * A value fetched at most once per `maxAgeMs`: calls within that time (and while the fetch is out)
 * share one fetch. A failed fetch is not kept, so the next call fetches again. The age counts from
 * when the fetch started, so a value is never used older than `maxAgeMs` after it was asked for.
 */
export class RecentValue<T> {
  private latest: { askedAt: number; value: Promise<T> } | null = null;

  constructor(
    private readonly fetch: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(): Promise<T> {
    const now = this.now();
    if (this.latest !== null && now - this.latest.askedAt < this.maxAgeMs) {
      return this.latest.value;
    }
    const value = this.fetch();
    const entry = { askedAt: now, value };
    this.latest = entry;
    value.catch(() => {
      if (this.latest === entry) {
        this.latest = null;
      }
    });
    return value;
  }
}
