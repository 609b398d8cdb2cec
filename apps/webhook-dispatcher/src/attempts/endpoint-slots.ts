/** The endpoints to hold back in a claim, and how many more attempts the busy ones may start. */
export interface EndpointRoom {
  /** Attempts any endpoint may have in flight on this replica. */
  perEndpoint: number;
  /** Endpoints with attempts in flight and room left, with that room (1 … perEndpoint − 1). */
  busy: { endpoint: string; room: number }[];
  /** Endpoints at the limit: none of their deliveries is claimed until one of their attempts ends. */
  full: string[];
}

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

  room(): EndpointRoom {
    const busy: EndpointRoom['busy'] = [];
    const full: string[] = [];
    for (const [endpoint, count] of this.inFlight) {
      const room = this.perEndpoint - count;
      if (room > 0) {
        busy.push({ endpoint, room });
      } else {
        full.push(endpoint);
      }
    }
    return { perEndpoint: this.perEndpoint, busy, full };
  }
}
