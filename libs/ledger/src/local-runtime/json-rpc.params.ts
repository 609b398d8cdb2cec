import { type Address, getBase58Encoder, isAddress } from '@solana/kit';
import { JsonRpcError, RPC_ERRORS } from './json-rpc.types';

export function paramsArray(params: unknown): unknown[] {
  if (params === undefined || params === null) {
    return [];
  }
  if (!Array.isArray(params)) {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, 'Invalid params: expected an array');
  }
  return params;
}

export function addressParam(value: unknown): Address {
  if (typeof value !== 'string' || !isAddress(value)) {
    throw new JsonRpcError(
      RPC_ERRORS.invalidParams,
      `Invalid param: Invalid address ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function stringParam(value: unknown, name: string): string {
  if (typeof value !== 'string') {
    throw new JsonRpcError(RPC_ERRORS.invalidParams, `Invalid param: ${name} must be a string`);
  }
  return value;
}

export function integerParam(value: unknown, name: string): bigint {
  if (
    (typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
    (typeof value === 'bigint' && value >= 0n)
  ) {
    return BigInt(value);
  }
  throw new JsonRpcError(RPC_ERRORS.invalidParams, `Invalid param: ${name} must be a non-negative integer`);
}

export function configParam(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function wireTransactionParam(value: unknown, encoding: unknown): Uint8Array {
  const text = stringParam(value, 'transaction');
  if (encoding === 'base64') {
    return new Uint8Array(Buffer.from(text, 'base64'));
  }
  if (encoding === undefined || encoding === 'base58') {
    try {
      return new Uint8Array(getBase58Encoder().encode(text));
    } catch {
      throw new JsonRpcError(RPC_ERRORS.invalidParams, 'Invalid param: not base58');
    }
  }
  throw new JsonRpcError(
    RPC_ERRORS.invalidParams,
    `Invalid param: unsupported encoding ${JSON.stringify(encoding)}`,
  );
}
