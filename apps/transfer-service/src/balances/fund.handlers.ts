import { Inject, Injectable } from '@nestjs/common';
import {
  amountSealingContext,
  type Envelope,
  fail,
  FundTestAccount,
  ok,
  type RequestOf,
  type ResponseOf,
  type Result,
} from '@cts/contracts';
import { OnCommand } from '@cts/messaging';
import { SERVICE_NAME } from '@cts/runtime';
import { type SealingKey, unsealAmount } from '@cts/crypto';
import { Custody } from '@cts/custody';
import { MAX_CONFIDENTIAL_AMOUNT } from '@cts/ledger';
import { UnitOfWork } from '@cts/persistence';
import { Ledgers } from '../ledger/ledgers';
import { AccountLocks, accountLockKey } from '../locks/account-locks';
import { DATA_KEY } from '../sealing/data-key';

/** `POST /v1/sandbox/fund`: test ledger only; the tokens land in the confidential available balance. */
@Injectable()
export class FundHandlers {
  constructor(
    private readonly custody: Custody,
    private readonly ledgers: Ledgers,
    private readonly locks: AccountLocks,
    private readonly unitOfWork: UnitOfWork,
    @Inject(SERVICE_NAME) private readonly consumer: string,
    @Inject(DATA_KEY) private readonly dataKey: SealingKey,
  ) {}

  @OnCommand(FundTestAccount)
  async fund(
    message: Envelope<RequestOf<typeof FundTestAccount>>,
  ): Promise<Result<ResponseOf<typeof FundTestAccount>>> {
    const { account_id, environment, asset, sealed_amount } = message.payload;
    if (environment !== 'test') {
      return fail('test_mode_only', 'Funding is only available with a test key');
    }
    let amount: bigint;
    try {
      amount = unsealAmount(this.dataKey, sealed_amount, amountSealingContext(account_id));
    } catch {
      return fail('invalid_request', 'amount could not be read', { param: 'amount' });
    }
    if (amount <= 0n || amount > MAX_CONFIDENTIAL_AMOUNT) {
      return fail('invalid_request', 'amount is out of range', { param: 'amount' });
    }
    const ledger = await this.ledgers.of(environment);
    // Inside the inbox transaction: a redelivered command answers the first funding, it does not mint again.
    const { value } = await this.unitOfWork.once(message, this.consumer, async () => {
      const { signature } = await this.locks.run(accountLockKey(account_id, environment, asset), () =>
        this.custody.withKeys(account_id, environment, (keys) => ledger.fundTestAccount(keys, asset, amount)),
      );
      return ok({
        asset,
        status: 'confirmed' as const,
        chain_signature: signature,
        funded_at: new Date().toISOString(),
      });
    });
    return value;
  }
}
