/** An answer within this long (with an HTTP status) marks an endpoint prompt: deliveries are claimed ahead for it. */
export const PROMPT_ANSWER_MS = 1000;
/** Endpoints remembered as prompt (the oldest forgotten first). */
const PROMPT_MEMORY = 10_000;
/**
 * How many more than its in-flight limit a prompt endpoint may have claimed and waiting here: one
 * claim takes about that many, so a replica claims once per that many deliveries, not once per
 * answer (each claim a round trip, which bounded a replica at a few deliveries per round trip).
 */
export const PROMPT_CLAIM_AHEAD = 32;

/** What the next claim takes: up to `limit` due deliveries, of `only` this endpoint if set. */
export interface ClaimPlan {
  only: string | null;
  limit: number;
}

interface EndpointState {
  /** Deliveries claimed for it and not yet answered: waiting to be sent, or in flight. */
  held: number;
  sending: number;
  /** Claimed deliveries waiting for a connection, first claimed first: each told whether to send. */
  waiting: ((send: boolean) => void)[];
}

/**
 * Deliveries per endpoint (a subscription URL's origin) on this replica. At most `perEndpoint` are
 * in flight to one endpoint, so one slow or hanging receiver holds at most that many attempts and
 * the others keep flowing. For an endpoint whose last answer came promptly, up to
 * PROMPT_CLAIM_AHEAD more are claimed ahead and wait here for a connection, so a freed connection
 * is used at once instead of after a claim's round trip; a hanging or new endpoint gets none
 * claimed ahead (its deliveries stay unclaimed in the table), and an endpoint whose answer comes
 * slow or not at all gives back what waits for it (not sent; due again once its batch ends). WARNING: the counts are per replica, not global: with R
 * replicas an endpoint can see up to R × perEndpoint concurrent deliveries.
 */
export class EndpointSlots {
  private readonly endpoints = new Map<string, EndpointState>();
  private readonly prompt = new Set<string>();

  constructor(readonly perEndpoint: number) {}

  /** A delivery to `endpoint` was claimed: it counts against the endpoint until answered. */
  claimed(endpoint: string): void {
    this.stateOf(endpoint).held += 1;
  }

  /**
   * Resolves when a delivery claimed for `endpoint` may be sent (fewer than `perEndpoint` in
   * flight), with the function to call once it is answered: `prompt` says whether the answer was.
   * Null when it is given back instead: the endpoint stopped answering promptly while it waited.
   */
  async startSending(endpoint: string): Promise<((prompt: boolean) => void) | null> {
    const state = this.stateOf(endpoint);
    if (state.sending >= this.perEndpoint) {
      const send = await new Promise<boolean>((resolve) => state.waiting.push(resolve));
      if (!send) {
        return null;
      }
    } else {
      state.sending += 1;
    }
    return (prompt) => this.answered(endpoint, state, prompt);
  }

  /**
   * The next claim after room freed up at `endpoint` (unknown: any endpoint). A prompt endpoint is
   * claimed for alone, all its room at once, once fewer than `perEndpoint` of its claimed ones are
   * left waiting (null until then: it is stocked); otherwise as many as every endpoint has room for.
   */
  planAfter(endpoint: string | undefined): ClaimPlan | null {
    if (endpoint !== undefined && this.prompt.has(endpoint)) {
      const state = this.endpoints.get(endpoint);
      const waiting = state ? state.held - state.sending : 0;
      if (waiting >= this.perEndpoint) {
        return null;
      }
      return { only: endpoint, limit: this.limitOf(endpoint) - (state?.held ?? 0) };
    }
    return { only: null, limit: this.commonRoom() };
  }

  /** Deliveries of `endpoint` claimed and not yet answered. */
  count(endpoint: string): number {
    return this.endpoints.get(endpoint)?.held ?? 0;
  }

  hasRoom(endpoint: string): boolean {
    return this.count(endpoint) < this.limitOf(endpoint);
  }

  /** Endpoints at the limit: none of their deliveries is claimed until one of their attempts ends. */
  full(): string[] {
    return [...this.endpoints.keys()].filter((endpoint) => !this.hasRoom(endpoint));
  }

  /**
   * How many deliveries one claim may take without knowing their endpoints: the least room left of
   * the endpoints held below their limit, and at most `perEndpoint` (a new endpoint's room). Every
   * endpoint the claim may reach (the full ones are excluded) has at least that much room.
   */
  commonRoom(): number {
    let room = this.perEndpoint;
    for (const [endpoint, state] of this.endpoints) {
      const left = this.limitOf(endpoint) - state.held;
      if (left > 0) {
        room = Math.min(room, left);
      }
    }
    return room;
  }

  private limitOf(endpoint: string): number {
    return this.prompt.has(endpoint) ? this.perEndpoint + PROMPT_CLAIM_AHEAD : this.perEndpoint;
  }

  private stateOf(endpoint: string): EndpointState {
    let state = this.endpoints.get(endpoint);
    if (!state) {
      state = { held: 0, sending: 0, waiting: [] };
      this.endpoints.set(endpoint, state);
    }
    return state;
  }

  private answered(endpoint: string, state: EndpointState, prompt: boolean): void {
    state.held -= 1;
    if (!prompt) {
      // Slow or unreachable now: what was claimed ahead for it is not sent after all.
      for (const giveBack of state.waiting.splice(0)) {
        state.held -= 1;
        giveBack(false);
      }
    }
    const next = state.waiting.shift();
    if (next) {
      next(true);
    } else {
      state.sending -= 1;
    }
    if (state.held <= 0) {
      this.endpoints.delete(endpoint);
    }
    this.prompt.delete(endpoint);
    if (prompt) {
      this.prompt.add(endpoint);
      if (this.prompt.size > PROMPT_MEMORY) {
        const [oldest] = this.prompt;
        this.prompt.delete(oldest ?? endpoint);
      }
    }
  }
}
