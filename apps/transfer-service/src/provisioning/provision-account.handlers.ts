import { Inject, Injectable } from '@nestjs/common';
import {
  ENVIRONMENTS,
  type Envelope,
  fail,
  ok,
  ProvisionLedgerAccount,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { RUNTIME, type Runtime, SERVICE_NAME } from '@cts/runtime';
import { decodeBase64, encryptMemoFor, parseSealingKey } from '@cts/crypto';
import { Custody, type CustodyKeyRecord, type CustodyKeyRepository } from '@cts/custody';
import { type Transaction, UnitOfWork } from '@cts/persistence';
import { CustodyKeyEntity } from '../custody/custody-key.entity';
import { Ledgers } from '../ledger/ledgers';

type Provisioned = ResponseOf<typeof ProvisionLedgerAccount>;

/**
 * Account creation's ledger half (issue 3): custody keys for every environment, then the confidential
 * token accounts on each ledger. The reply is stored by the inbox, so a redelivered command answers
 * the same encrypted `decryption_key` and only re-runs the (idempotent) ledger setup.
 */
@Injectable()
export class ProvisionAccountHandlers {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(SERVICE_NAME) private readonly consumer: string,
  ) {}

  @OnCommand(ProvisionLedgerAccount)
  async provision(message: Envelope<RequestOf<typeof ProvisionLedgerAccount>>): Promise<Result<Provisioned>> {
    const { account_id, recipient_key } = message.payload;
    const recipientKey = decodeBase64(recipient_key);
    if (recipientKey?.length !== 32) {
      return fail('invalid_request', 'recipient_key must be a 32-byte ElGamal public key', {
        param: 'recipient_key',
      });
    }
    const { value } = await this.unitOfWork.once(message, this.consumer, async (tx) => {
      const custody = new Custody(
        new TransactionalKeys(tx),
        parseSealingKey(this.runtime.secrets.custodyMasterKey, 'CUSTODY_MASTER_KEY'),
      );
      const provisioned = await custody.provisionAccount(account_id, ENVIRONMENTS);
      const { test, live } = provisioned.publicKeys;
      if (!test || !live) {
        throw new Error('custody did not provision every environment');
      }
      const addresses = { test: test.ownerAddress, live: live.ownerAddress };
      return ok({
        addresses,
        encrypted_decryption_key: encryptMemoFor(recipientKey, provisioned.decryptionKey),
      });
    });
    if (value.ok) {
      for (const environment of ENVIRONMENTS) {
        const ledger = await this.ledgers.of(environment);
        await this.custody.withKeys(account_id, environment, (keys) => ledger.openAccounts(keys));
      }
    }
    return value;
  }
}

/** The custody port inside the inbox transaction: the keys and the stored reply commit together. */
class TransactionalKeys implements CustodyKeyRepository {
  constructor(private readonly tx: Transaction) {}

  async save(record: CustodyKeyRecord): Promise<void> {
    await this.tx.manager.insert(CustodyKeyEntity, record);
  }

  async find(): Promise<CustodyKeyRecord | undefined> {
    return Promise.resolve(undefined);
  }
}
