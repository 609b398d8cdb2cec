/**
 * Attempts in flight per endpoint (a subscription URL's origin) on this replica, so one slow or
 * hanging receiver holds at most `perEndpoint` of the replica's attempt slots and the others keep
 * flowing. WARNING: the count is per replica, not global: with R replicas an endpoint can see up
 * to R × perEndpoint concurrent deliveries.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perEndpoint: number) {}

  acquire(endpoint: string): void {
    this.inFlight.set(endpoint, (this.inFlight.get(endpoint) ?? 0) + 1);
  }

  release(endpoint: string): void {
    const left = (this.inFlight.get(endpoint) ?? 0) - 1;
    if (left > 0) {
      this.inFlight.set(endpoint, left);
    } else {
      this.inFlight.delete(endpoint);
    }
  }

  count(endpoint: string): number {
    return this.inFlight.get(endpoint) ?? 0;
  }

  hasRoom(endpoint: string): boolean {
    return this.count(endpoint) < this.perEndpoint;
  }

  /** Endpoints at the limit: none of their deliveries is claimed until one of their attempts ends. */
  full(): string[] {
    return [...this.inFlight.keys()].filter((endpoint) => !this.hasRoom(endpoint));
  }
}
