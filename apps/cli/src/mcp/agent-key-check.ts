import { type CtsClient, CtsApiError } from '@cts/sdk';
import { createHash } from 'node:crypto';

export type AgentKeyVerdict = { ok: true } | { ok: false; status: 401 | 403 | 503; message: string };

export const NOT_AN_AGENT_KEY =
  "This API key is not an agent's: cts mcp acts only as an agent account, whose payments its spend policy governs. Start it with the key of an agent (POST /v1/agents/{id}/api-keys).";

/**
 * Whether `client`'s key is an agent's key the API accepts. A key of a personal or business account
 * would pay with no spend policy at all, so the MCP server never serves one.
 */
export async function checkAgentKey(client: CtsClient): Promise<AgentKeyVerdict> {
  try {
    const me = await client.me();
    return me.type === 'agent' ? { ok: true } : { ok: false, status: 403, message: NOT_AN_AGENT_KEY };
  } catch (error) {
    if (error instanceof CtsApiError && error.status === 401) {
      return { ok: false, status: 401, message: 'The API key was refused (unknown, revoked or malformed)' };
    }
    return { ok: false, status: 503, message: 'The payments API could not be reached to check the API key' };
  }
}

/** How long a key's verdict is kept: a revoked key is still refused by the API on every tool call. */
const VERDICT_TTL_MS = 30_000;
const MAX_KEPT = 1_000;

/**
 * `checkAgentKey` per bearer key of the HTTP mode, each verdict kept briefly (by the key's hash, never
 * the key) so a session's many requests cost one lookup. An unreachable API is not kept: asked again.
 */
export class AgentKeyChecks {
  private readonly verdicts = new Map<string, { until: number; verdict: AgentKeyVerdict }>();

  constructor(
    private readonly clientFor: (key: string) => CtsClient,
    private readonly now: () => number = Date.now,
  ) {}

  async check(key: string): Promise<AgentKeyVerdict> {
    const id = createHash('sha256').update(key).digest('hex');
    const kept = this.verdicts.get(id);
    if (kept && kept.until > this.now()) {
      return kept.verdict;
    }
    const verdict = await checkAgentKey(this.clientFor(key));
    if (verdict.ok || verdict.status !== 503) {
      this.keep(id, verdict);
    }
    return verdict;
  }

  private keep(id: string, verdict: AgentKeyVerdict): void {
    if (this.verdicts.size >= MAX_KEPT) {
      const now = this.now();
      for (const [kept, { until }] of this.verdicts) {
        if (until <= now || this.verdicts.size >= MAX_KEPT) {
          this.verdicts.delete(kept);
        }
      }
    }
    this.verdicts.set(id, { until: this.now() + VERDICT_TTL_MS, verdict });
  }
}

/** A tool that spends was called with a key that is not an agent's (known once the API answered). */
export class NotAnAgentKeyError extends Error {
  override readonly name = 'NotAnAgentKeyError';

  constructor() {
    super(NOT_AN_AGENT_KEY);
  }
}
