import {
  checkDecryptionKey,
  createDecryptionProof,
  CryptoError,
  decryptAmount,
  decryptBalance,
  decryptMemo,
  loadZkSdk,
} from '@cts/sdk';

export type Opened =
  { state: 'open'; text: string } | { state: 'locked' } | { state: 'unreadable'; why: string };

export interface BalanceInput {
  asset: string;
  ciphertext: string;
  decryptableBalance?: string;
}

/** Checks a pasted decryption key locally (format and checksum): a typo is caught before any use. */
export function decryptionKeyProblem(decryptionKey: string): string | undefined {
  try {
    checkDecryptionKey(decryptionKey);
    return undefined;
  } catch (error) {
    return error instanceof CryptoError ? `Decryption key: ${error.message}.` : 'Not a decryption key.';
  }
}

/**
 * Everything the page decrypts, in the page, with the SDK's own functions. The decryption key lives
 * in this object only (never in storage, never in a request); without it every amount is "locked".
 */
export class Amounts {
  private ready: Promise<boolean> | undefined;
  private loadError: string | undefined;

  constructor(
    private decryptionKey: string | undefined,
    private readonly base: URL,
  ) {}

  get unlocked(): boolean {
    return this.decryptionKey !== undefined;
  }

  /** Why amounts cannot be opened in this browser, when the WASM failed to load. */
  get problem(): string | undefined {
    return this.loadError;
  }

  setKey(decryptionKey: string | undefined): void {
    this.decryptionKey = decryptionKey;
  }

  /** Loads zk-sdk's WASM the first time a key is present; false if there is no key or it failed. */
  async prepare(): Promise<boolean> {
    if (this.decryptionKey === undefined) {
      return false;
    }
    this.ready ??= loadZkSdk(this.base).then(
      () => true,
      (error: unknown) => {
        this.loadError = `Amounts cannot be decrypted in this browser: ${error instanceof Error ? error.message : String(error)}`;
        this.ready = undefined;
        return false;
      },
    );
    return this.ready;
  }

  /** Opens an `encrypted_amount` (transfer, pending approval, key total). Call `prepare` first. */
  amount(encrypted: string | null | undefined, asset: string): Opened {
    return this.open(() => (encrypted ? decryptAmount(this.keyOrThrow(), encrypted, asset) : undefined));
  }

  memo(encrypted: string | null | undefined): Opened {
    return this.open(() => (encrypted ? decryptMemo(this.keyOrThrow(), encrypted) : undefined));
  }

  balance(input: BalanceInput): Opened {
    return this.open(() =>
      decryptBalance(this.keyOrThrow(), input.ciphertext, input.asset, {
        decryptableBalance: input.decryptableBalance,
      }),
    );
  }

  /** The `decryption_proof` for the balances endpoint: proves the amounts without revealing the key. */
  proof(inputs: readonly BalanceInput[]): string {
    return createDecryptionProof(this.keyOrThrow(), inputs);
  }

  private keyOrThrow(): string {
    if (this.decryptionKey === undefined) {
      throw new Error('locked');
    }
    return this.decryptionKey;
  }

  private open(read: () => string | undefined): Opened {
    if (this.decryptionKey === undefined || this.loadError !== undefined) {
      return { state: 'locked' };
    }
    try {
      const text = read();
      return text === undefined
        ? { state: 'unreadable', why: 'no encrypted value' }
        : { state: 'open', text };
    } catch (error) {
      const why =
        error instanceof CryptoError && error.code === 'authentication_failed'
          ? 'does not open with this decryption key'
          : error instanceof Error
            ? error.message
            : String(error);
      return { state: 'unreadable', why };
    }
  }
}
