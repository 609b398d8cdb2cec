import { type Account, type CtsClient, type SpendPolicy } from '@cts/sdk';
import { NotAnAgentKeyError } from './agent-key-check';

/**
 * The one agent this server acts as, known by its API key. Who it is is asked once and kept (an
 * account's id and type never change); the policy is read fresh each time, since its owner may
 * change it at any moment.
 */
export class AgentSession {
  private account: Promise<Account> | null = null;

  constructor(readonly client: CtsClient) {}

  me(): Promise<Account> {
    if (!this.account) {
      this.account = this.client.me();
      // A failed lookup (bad key, service down) is not kept: the next call asks again.
      this.account.catch(() => {
        this.account = null;
      });
    }
    return this.account;
  }

  /** Before spending: only an agent's payments go through a spend policy. */
  async requireAgent(): Promise<void> {
    if ((await this.me()).type !== 'agent') {
      throw new NotAnAgentKeyError();
    }
  }

  policy(): Promise<SpendPolicy> {
    return this.client.ownSpendPolicy();
  }

  /** The policy, or null when it cannot be read now: used only to word a refusal. */
  async policyOrNull(): Promise<SpendPolicy | null> {
    try {
      return await this.policy();
    } catch {
      return null;
    }
  }
}
