import { CryptoError } from './crypto-error';

/** Token amounts on Solana are u64 base units. */
export const U64_MAX = 2n ** 64n - 1n;

export function isU64(value: bigint): boolean {
  return value >= 0n && value <= U64_MAX;
}

export function assertU64(value: bigint, what = 'amount'): void {
  if (!isU64(value)) {
    throw new CryptoError('amount_out_of_range', `${what} must be between 0 and 2^64-1 base units`);
  }
}

export function u64ToBytes(value: bigint): Uint8Array {
  assertU64(value);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
}

export function u64FromBytes(bytes: Uint8Array): bigint {
  if (bytes.length !== 8) {
    throw new CryptoError('malformed_input', `expected 8 bytes for a u64, got ${bytes.length}`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
}
