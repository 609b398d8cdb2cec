import { LedgerError } from '../ledger.errors';

/** Token-2022 caps a deposit or confidential transfer at 48 bits (16-bit low + 32-bit high halves). */
export const MAX_CONFIDENTIAL_AMOUNT = (1n << 48n) - 1n;
const MAX_U64 = (1n << 64n) - 1n;

export function assertConfidentialAmount(amount: bigint): void {
  if (typeof amount !== 'bigint' || amount <= 0n || amount > MAX_CONFIDENTIAL_AMOUNT) {
    throw new LedgerError(
      'invalid_amount',
      'a confidential amount must be a bigint between 1 and 2^48 - 1 base units',
    );
  }
}

export function assertStandardAmount(amount: bigint): void {
  if (typeof amount !== 'bigint' || amount <= 0n || amount > MAX_U64) {
    throw new LedgerError('invalid_amount', 'an amount must be a bigint between 1 and 2^64 - 1 base units');
  }
}

/** The mint authority that funds test accounts; only a test ledger with one may fund. */
export function fundingAuthority(environment: string, mintAuthoritySeed: Uint8Array | undefined): Uint8Array {
  if (environment !== 'test' || mintAuthoritySeed === undefined) {
    throw new LedgerError(
      'funding_not_allowed',
      'funding is only available on a test ledger with a mint authority',
    );
  }
  return mintAuthoritySeed;
}

export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && left.every((byte, index) => byte === right[index]);
}
