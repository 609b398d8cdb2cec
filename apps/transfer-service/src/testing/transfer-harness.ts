import {
  type AccountParty,
  amountSealingContext,
  memoSealingContext,
  CreateTransfer,
  EventTopics,
  FundTestAccount,
  type MessageContext,
  newId,
  type PartyRef,
  ProvisionLedgerAccount,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import {
  decodeBase64,
  decryptMemo,
  deriveElGamalPubkey,
  encodeBase64,
  generateElGamalSecret,
  parseDecryptionKey,
  parseSealingKey,
  seal,
  utf8Encode,
  sealAmount,
  zk,
} from '@cts/crypto';
import {
  createTestDatabase,
  newParty,
  type ServiceUnderTest,
  startServiceUnderTest,
  type TestDatabase,
} from '@cts/testing';
import { start } from '../transfer-service';
import { FakeAccountService, FakeAgentPolicyService, FakeApprovalService } from './fake-peers';

export const context: MessageContext = { correlationId: 'req_test', environment: 'test', accountId: null };

export interface Peers {
  accounts: FakeAccountService;
  policies: FakeAgentPolicyService;
  approvals: FakeApprovalService;
}

export interface TransferRow {
  id: string;
  status: string;
  chain_signature: string | null;
  failure_reason: string | null;
  sealed_amount: string;
}

/**
 * transfer-service on a fresh PostgreSQL database with its in-process ledgers (test and live), and
 * fakes of account-service, agent-policy-service and approval-service on its bus.
 */
export class TransferHarness {
  private db?: TestDatabase;
  private running?: ServiceUnderTest<Peers>;
  private readonly owners = new Map<string, { agent: PartyRef; owner: PartyRef }>();
  /** Each account's decryption key, as its holder reads it from the provisioning answer. */
  private readonly decryptionKeys = new Map<string, string>();

  async start(env: Record<string, string> = {}): Promise<void> {
    this.db = await createTestDatabase();
    this.running = await startServiceUnderTest(this.db, start, {
      env,
      observe: [EventTopics.transfer],
      peers: (bus) => ({
        accounts: new FakeAccountService(bus),
        policies: new FakeAgentPolicyService(bus, (agentId) => this.required(this.owners.get(agentId))),
        approvals: new FakeApprovalService(bus),
      }),
    });
  }

  async stop(): Promise<void> {
    await this.running?.close();
    await this.db?.drop();
  }

  get service(): ServiceUnderTest<Peers> {
    return this.required(this.running);
  }

  get peers(): Peers {
    return this.service.peers;
  }

  /** A new account with custody keys and ledger accounts (provisioned by transfer-service itself). */
  async openAccount(
    options: { type?: AccountParty['type']; kyc?: AccountParty['kyc_status']; owner?: PartyRef } = {},
  ): Promise<AccountParty> {
    const party = newParty(options.type === 'agent' ? 'agent' : 'user');
    const recipientSecret = generateElGamalSecret();
    const provisioned = await this.service.commands.send(
      ProvisionLedgerAccount,
      {
        account_id: party.account_id,
        recipient_key: encodeBase64(deriveElGamalPubkey(recipientSecret)),
      },
      context,
    );
    if (!provisioned.ok) {
      throw new Error(`provisioning failed: ${provisioned.error.message}`);
    }
    this.decryptionKeys.set(
      party.account_id,
      decryptMemo(recipientSecret, provisioned.value.encrypted_decryption_key),
    );
    const account: AccountParty = {
      ...party,
      type: options.type ?? 'personal',
      kyc_status: options.kyc ?? 'verified',
      address: this.required(provisioned.value.addresses.test),
      owner: options.owner ?? null,
    };
    if (options.owner) {
      this.owners.set(account.account_id, { agent: party, owner: options.owner });
    }
    return this.peers.accounts.register(account);
  }

  /** An agent account under `owner`. */
  openAgent(owner: AccountParty): Promise<AccountParty> {
    return this.openAccount({ type: 'agent', owner: { account_id: owner.account_id, handle: owner.handle } });
  }

  /** Test funds into the account's confidential available balance; fails the test if refused. */
  async fund(account: AccountParty, amount: bigint): Promise<void> {
    const funded = await this.service.commands.send(
      FundTestAccount,
      {
        account_id: account.account_id,
        environment: 'test',
        asset: 'USDC',
        sealed_amount: this.seal(account.account_id, amount),
      },
      context,
    );
    if (!funded.ok) {
      throw new Error(`funding failed: ${funded.error.message}`);
    }
  }

  /** An amount in base units, sealed as the gateway seals it for this sender. */
  /** A memo sealed as the gateway seals it for `accountId`. */
  sealMemo(accountId: string, memo: string): string {
    return seal(
      parseSealingKey(this.service.runtime.secrets.dataSealingKey),
      utf8Encode(memo),
      memoSealingContext(accountId),
    );
  }

  seal(accountId: string, amount: bigint): string {
    return sealAmount(
      parseSealingKey(this.service.runtime.secrets.dataSealingKey),
      amount,
      amountSealingContext(accountId),
    );
  }

  transferRequest(
    from: AccountParty,
    to: string,
    amount: bigint,
    overrides: Partial<RequestOf<typeof CreateTransfer>> = {},
  ) {
    return {
      account_id: from.account_id,
      environment: 'test',
      api_key_id: newId('key'),
      to,
      asset: 'USDC',
      confidential: true,
      sealed_amount: this.seal(from.account_id, amount),
      sealed_memo: null,
      idempotency_key: null,
      approved_transfer_id: null,
      ...overrides,
    } satisfies RequestOf<typeof CreateTransfer>;
  }

  send(
    from: AccountParty,
    to: string,
    amount: bigint,
    overrides: Partial<RequestOf<typeof CreateTransfer>> = {},
  ): Promise<Result<ResponseOf<typeof CreateTransfer>>> {
    return this.service.commands.send(
      CreateTransfer,
      this.transferRequest(from, to, amount, overrides),
      context,
    );
  }

  async row(id: string): Promise<TransferRow | undefined> {
    const [row] = await this.service.query<TransferRow>(`SELECT * FROM transfers.transfers WHERE id = $1`, [
      id,
    ]);
    return row;
  }

  async rowsOf(account: AccountParty): Promise<TransferRow[]> {
    return this.service.query<TransferRow>(
      `SELECT * FROM transfers.transfers WHERE sender_account_id = $1 ORDER BY created_at`,
      [account.account_id],
    );
  }

  /** Opens an AE ciphertext (an `encrypted_amount`, a key's total) with the account's decryption key. */
  openAmount(account: AccountParty, encrypted: string): bigint {
    const { aeKey } = parseDecryptionKey(this.required(this.decryptionKeys.get(account.account_id)));
    const ciphertext = zk.AeCiphertext.fromBytes(this.required(decodeBase64(encrypted) ?? undefined));
    if (!ciphertext) {
      throw new Error('not an AE ciphertext');
    }
    const key = zk.AeKey.fromBytes(aeKey);
    try {
      return key.decrypt(ciphertext);
    } finally {
      key.free();
      ciphertext.free();
    }
  }

  /** The events written for a transfer, in order. */
  async eventsOf(transferId: string): Promise<string[]> {
    const rows = await this.service.query<{ type: string }>(
      `SELECT envelope->>'type' AS type FROM transfers.outbox WHERE key = $1 ORDER BY created_at, id`,
      [transferId],
    );
    return rows.map((r) => r.type);
  }

  private required<T>(value: T | undefined): T {
    if (value === undefined) {
      throw new Error('the harness is not started');
    }
    return value;
  }
}

/** The error code of a result, or `ok`. */
export const codeOf = (result: Result<unknown>): string => (result.ok ? 'ok' : result.error.code);
