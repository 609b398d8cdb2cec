import { type ApiRequest, type ApiResponse, type FetchLike, HttpTransport } from './http-transport';
import { DEFAULT_MAX_RETRY_AFTER_MS } from './retry-policy';
import {
  type Account,
  type AgentAccount,
  type AgentList,
  type AgentTransaction,
  type AgentTransactionList,
  type ApiKeyList,
  type BalanceList,
  type BalancesQuery,
  type CreateAgentInput,
  type CreateApiKeyInput,
  type CreatedApiKey,
  type CreatedWebhook,
  type CreateTransferInput,
  type CreateTransferResult,
  type CreateWebhookInput,
  type CtsEvent,
  type EventList,
  type ListEventsQuery,
  type UpdateWebhookInput,
  type Webhook,
  type FundInput,
  type Funding,
  type HeldAgentTransaction,
  type ListAgentTransactionsQuery,
  type ListTransfersQuery,
  type PendingApprovalList,
  type SpendPolicy,
  type SpendPolicyPatch,
  type Transfer,
  type TransferList,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookList,
} from './types';

export interface CtsClientOptions {
  /** e.g. `http://localhost:8080`; the `/v1` paths are appended. */
  baseUrl: string;
  /** `svc_test_…` or `svc_live_…`. */
  apiKey: string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike;
  /** Retries after the first attempt, default 3. */
  maxRetries?: number;
  /** Base of the exponential backoff, default 500 ms. */
  retryDelayMs?: number;
  /** Per attempt, body included, default 30 s. */
  timeoutMs?: number;
  /**
   * The longest `Retry-After` (429, 502-504) waited before retrying, default 60 s. A longer one is
   * not waited for: the call throws that answer at once, its `retryAfterMs` set.
   */
  maxRetryAfterMs?: number;
}

export interface WriteOptions {
  /** Reuse one to make a create safe to repeat across processes; default: a random UUID per call. */
  idempotencyKey?: string;
}

const segment = encodeURIComponent;

/** Typed client for the `/v1` REST API. Holds no state beyond its settings; never logs. */
export class CtsClient {
  private readonly transport: HttpTransport;

  constructor(options: CtsClientOptions) {
    this.transport = new HttpTransport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      maxRetries: options.maxRetries ?? 3,
      retryDelayMs: options.retryDelayMs ?? 500,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    });
  }

  /** Any request, with the HTTP status and request id: for endpoints this client does not name. */
  request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    return this.transport.send<T>(request);
  }

  // Accounts

  me(): Promise<Account> {
    return this.body({ method: 'GET', path: '/v1/accounts/me' });
  }

  /**
   * The proof names the amounts: it travels in the `X-Decryption-Proof` header, never in the URL
   * (proxies and ingress logs keep URLs).
   */
  balances(query: BalancesQuery = {}): Promise<BalanceList> {
    return this.body({
      method: 'GET',
      path: '/v1/accounts/me/balances',
      query: { include: query.include },
      ...(query.decryptionProof === undefined
        ? {}
        : { headers: { 'X-Decryption-Proof': query.decryptionProof } }),
    });
  }

  agents(): Promise<AgentList> {
    return this.body({ method: 'GET', path: '/v1/accounts/me/agents' });
  }

  createAgent(input: CreateAgentInput, options: WriteOptions = {}): Promise<AgentAccount> {
    return this.body({ method: 'POST', path: '/v1/accounts/me/agents', body: input, ...options });
  }

  // Agents

  agentApiKey(
    agentAccountId: string,
    input: CreateApiKeyInput,
    options: WriteOptions = {},
  ): Promise<CreatedApiKey> {
    const path = `/v1/agents/${segment(agentAccountId)}/api-keys`;
    return this.body({ method: 'POST', path, body: input, ...options });
  }

  /** The agent's keys, revoked ones included (its owner's key only). */
  agentApiKeys(agentAccountId: string): Promise<ApiKeyList> {
    return this.body({ method: 'GET', path: `/v1/agents/${segment(agentAccountId)}/api-keys` });
  }

  async revokeAgentApiKey(agentAccountId: string, keyId: string): Promise<void> {
    const path = `/v1/agents/${segment(agentAccountId)}/api-keys/${segment(keyId)}`;
    await this.transport.send({ method: 'DELETE', path });
  }

  spendPolicy(agentAccountId: string): Promise<SpendPolicy> {
    return this.body({ method: 'GET', path: `/v1/agents/${segment(agentAccountId)}/spend-policy` });
  }

  updateSpendPolicy(
    agentAccountId: string,
    patch: SpendPolicyPatch,
    options: WriteOptions = {},
  ): Promise<SpendPolicy> {
    const path = `/v1/agents/${segment(agentAccountId)}/spend-policy`;
    return this.body({ method: 'PATCH', path, body: patch, ...options });
  }

  /** The policy the calling agent runs under (agent keys only; `404 agent_not_found` otherwise). */
  ownSpendPolicy(): Promise<SpendPolicy> {
    return this.body({ method: 'GET', path: '/v1/accounts/me/spend-policy' });
  }

  /** A held agent transaction's current state, for its owner or the agent itself. */
  agentTransaction(transactionId: string): Promise<AgentTransaction> {
    return this.body({ method: 'GET', path: `/v1/agents/transactions/${segment(transactionId)}` });
  }

  /** An agent's held transactions, newest first: for its owner, or the agent itself. */
  agentTransactions(
    agentAccountId: string,
    query: ListAgentTransactionsQuery = {},
  ): Promise<AgentTransactionList> {
    const path = `/v1/agents/${segment(agentAccountId)}/transactions`;
    return this.body({ method: 'GET', path, query: { ...query } });
  }

  pendingTransactions(): Promise<PendingApprovalList> {
    return this.body({ method: 'GET', path: '/v1/agents/transactions/pending' });
  }

  approve(transactionId: string, options: WriteOptions = {}): Promise<AgentTransaction> {
    return this.body({
      method: 'POST',
      path: `/v1/agents/transactions/${segment(transactionId)}/approve`,
      ...options,
    });
  }

  reject(transactionId: string, options: WriteOptions = {}): Promise<AgentTransaction> {
    return this.body({
      method: 'POST',
      path: `/v1/agents/transactions/${segment(transactionId)}/reject`,
      ...options,
    });
  }

  // Transfers

  /**
   * A transfer, or (HTTP 202) an agent transaction held for human approval: nothing has moved yet.
   */
  async createTransfer(
    input: CreateTransferInput,
    options: WriteOptions = {},
  ): Promise<CreateTransferResult> {
    const response = await this.transport.send<Transfer | HeldAgentTransaction>({
      method: 'POST',
      path: '/v1/transfers',
      body: input,
      ...options,
    });
    const { status, body } = response;
    if (status === 202 || body.status === 'pending_approval') {
      return { kind: 'pending_approval', httpStatus: status, transaction: body as HeldAgentTransaction };
    }
    return { kind: 'transfer', httpStatus: status, transfer: body };
  }

  transfer(transferId: string): Promise<Transfer> {
    return this.body({ method: 'GET', path: `/v1/transfers/${segment(transferId)}` });
  }

  transfers(query: ListTransfersQuery = {}): Promise<TransferList> {
    return this.body({ method: 'GET', path: '/v1/transfers', query: { ...query } });
  }

  // API keys

  apiKeys(): Promise<ApiKeyList> {
    return this.body({ method: 'GET', path: '/v1/api-keys' });
  }

  createApiKey(input: CreateApiKeyInput, options: WriteOptions = {}): Promise<CreatedApiKey> {
    return this.body({ method: 'POST', path: '/v1/api-keys', body: input, ...options });
  }

  async revokeApiKey(keyId: string): Promise<void> {
    await this.transport.send({ method: 'DELETE', path: `/v1/api-keys/${segment(keyId)}` });
  }

  // Sandbox (svc_test_ keys only)

  fund(input: FundInput, options: WriteOptions = {}): Promise<Funding> {
    return this.body({ method: 'POST', path: '/v1/sandbox/fund', body: input, ...options });
  }

  // Webhooks

  createWebhook(input: CreateWebhookInput, options: WriteOptions = {}): Promise<CreatedWebhook> {
    return this.body({ method: 'POST', path: '/v1/webhooks', body: input, ...options });
  }

  webhooks(): Promise<WebhookList> {
    return this.body({ method: 'GET', path: '/v1/webhooks' });
  }

  /**
   * Resolves when the subscription is deleted, also when a retry finds it already gone after an
   * attempt whose answer was lost (that attempt deleted it); a 404 on the first attempt throws
   * `webhook_not_found`.
   */
  async deleteWebhook(webhookId: string): Promise<void> {
    await this.transport.send({
      method: 'DELETE',
      path: `/v1/webhooks/${segment(webhookId)}`,
      goneCode: 'webhook_not_found',
    });
  }

  /** Queues a new delivery of a past event; returns that delivery. */
  replay(webhookId: string, eventId: string, options: WriteOptions = {}): Promise<WebhookDelivery> {
    const path = `/v1/webhooks/${segment(webhookId)}/replay/${segment(eventId)}`;
    return this.body({ method: 'POST', path, ...options });
  }

  deliveries(
    webhookId: string,
    page: { limit?: number; offset?: number } = {},
  ): Promise<WebhookDeliveryList> {
    return this.body({
      method: 'GET',
      path: `/v1/webhooks/${segment(webhookId)}/deliveries`,
      query: { ...page },
    });
  }

  webhook(webhookId: string): Promise<Webhook> {
    return this.body({ method: 'GET', path: `/v1/webhooks/${segment(webhookId)}` });
  }

  /** Change the URL, the event types, or disable/enable (`{ disabled: false }` resumes waiting deliveries). */
  updateWebhook(webhookId: string, input: UpdateWebhookInput, options: WriteOptions = {}): Promise<Webhook> {
    return this.body({
      method: 'PATCH',
      path: `/v1/webhooks/${segment(webhookId)}`,
      body: input,
      ...options,
    });
  }

  /** A new secret, returned this once; for 24 h deliveries are signed with the old one as well. */
  rotateWebhookSecret(webhookId: string, options: WriteOptions = {}): Promise<CreatedWebhook> {
    return this.body({
      method: 'POST',
      path: `/v1/webhooks/${segment(webhookId)}/rotate-secret`,
      ...options,
    });
  }

  /** Delivers a `webhook.test` event to this endpoint now; returns that delivery. */
  testWebhook(webhookId: string, options: WriteOptions = {}): Promise<WebhookDelivery> {
    return this.body({ method: 'POST', path: `/v1/webhooks/${segment(webhookId)}/test`, ...options });
  }

  // Events (last 30 days, the key's environment)

  /** A page of the account's events, newest first. */
  events(query: ListEventsQuery = {}): Promise<EventList> {
    return this.body({
      method: 'GET',
      path: '/v1/events',
      query: {
        limit: query.limit,
        starting_after: query.startingAfter,
        type: query.types,
        created_after: query.createdAfter,
        created_before: query.createdBefore,
      },
    });
  }

  /** Every event matching `query` (newest first), fetching page after page. */
  async *allEvents(query: Omit<ListEventsQuery, 'startingAfter'> = {}): AsyncGenerator<CtsEvent> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.events({ ...query, ...(startingAfter === undefined ? {} : { startingAfter }) });
      yield* page.events;
      const last = page.events.at(-1);
      if (!page.has_more || !last) {
        return;
      }
      startingAfter = last.event_id;
    }
  }

  event(eventId: string): Promise<CtsEvent> {
    return this.body({ method: 'GET', path: `/v1/events/${segment(eventId)}` });
  }

  private async body<T>(request: ApiRequest): Promise<T> {
    return (await this.transport.send<T>(request)).body;
  }
}
