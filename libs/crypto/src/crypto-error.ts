export type CryptoErrorCode =
  | 'invalid_key'
  | 'malformed_input'
  | 'unsupported_version'
  | 'authentication_failed'
  | 'checksum_mismatch'
  | 'amount_out_of_range'
  | 'not_decryptable'
  | 'unknown_asset';

/** A failure of a crypto primitive, with a stable code callers can branch on. Messages never carry secrets. */
export class CryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string) {
    super(message);
    this.name = 'CryptoError';
    this.code = code;
  }
}
