export type CustodyErrorCode =
  'keys_not_found' | 'keys_already_exist' | 'balance_unreadable' | 'invalid_amount' | 'invalid_environments';

/** Custody failures with stable codes; messages name accounts, never keys or amounts. */
export class CustodyError extends Error {
  readonly code: CustodyErrorCode;

  constructor(code: CustodyErrorCode, message: string) {
    super(message);
    this.name = 'CustodyError';
    this.code = code;
  }
}
