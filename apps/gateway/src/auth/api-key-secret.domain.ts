import { type Environment } from '@cts/contracts';
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_BYTES = 32;
/** 62^43 > 2^256: every 32-byte value fits in 43 base62 digits, so secrets have a fixed length. */
const BODY_LENGTH = 43;
const SECRET_PATTERN = /^svc_(live|test)_[0-9A-Za-z]{43}$/;
const VISIBLE_BODY_CHARS = 4;

/** `svc_<env>_` + 32 random bytes in base62 (spec §5.4, ARCHITECTURE §6). */
export function generateApiKeySecret(environment: Environment): string {
  return `svc_${environment}_${toBase62(randomBytes(SECRET_BYTES))}`;
}

/** The environment of a well-formed secret; `undefined` for anything else. */
export function apiKeyEnvironment(secret: string): Environment | undefined {
  const match = SECRET_PATTERN.exec(secret);
  return match ? (match[1] as Environment) : undefined;
}

/** What identifies a key on screen without revealing it: `svc_test_AbCd`. */
export function apiKeyDisplayPrefix(secret: string): string {
  const bodyStart = secret.indexOf('_', 4) + 1;
  return secret.slice(0, bodyStart + VISIBLE_BODY_CHARS);
}

function toBase62(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(BODY_LENGTH, '0');
}
