import { type Environment } from '@cts/contracts';

/** One row of `transfers.custody_keys`: public parts in the clear, the key material sealed. */
export interface CustodyKeyRecord {
  accountId: string;
  environment: Environment;
  ownerAddress: string;
  /** Base64, 32 bytes. */
  elgamalPubkey: string;
  /** `sealKeys` output; opens only with the master key and this row's other columns. */
  sealedKeys: string;
  createdAt: Date;
}

/**
 * Storage port; transfer-service implements it with TypeORM. WARNING: keys are never replaced —
 * losing them loses the funds. `save` must insert only and fail on an existing (accountId,
 * environment) (a unique constraint), never upsert.
 */
export interface CustodyKeyRepository {
  save(record: CustodyKeyRecord): Promise<void>;
  find(accountId: string, environment: Environment): Promise<CustodyKeyRecord | undefined>;
}
