/**
 * What the ledger needs from a zero-knowledge proof engine: the proof data of Token-2022's
 * ConfigureAccount, Transfer and Withdraw instructions as the on-chain ZK ElGamal proof program reads
 * them, and their verification. Bytes in, bytes out, so the native addon (solana-zk-sdk) and the
 * WebAssembly build (@solana/zk-sdk) are interchangeable; plain data also crosses a worker boundary.
 */
export type ProofEngineName = 'native' | 'wasm';

/** The proof kinds the service generates (the CI verifier checks each of them). */
export const PROOF_KINDS = [
  'pubkey-validity',
  'zero-ciphertext',
  'ciphertext-commitment-equality',
  'batched-grouped-ciphertext-3-handles-validity',
  'batched-range-u64',
  'batched-range-u128',
] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

export interface TransferProofInput {
  elgamalSecret: Uint8Array;
  /** The source account's available-balance ciphertext (64 bytes), as on the ledger. */
  availableBalance: Uint8Array;
  /** The available balance after the transfer (decrypted from the AE balance by the caller). */
  newAvailable: bigint;
  /** At most 2^48 − 1: encrypted as a 16-bit low and a 32-bit high half. */
  amount: bigint;
  destinationPubkey: Uint8Array;
  /** 32 zero bytes when the mint has no auditor. */
  auditorPubkey: Uint8Array;
}

export interface TransferProofs {
  equality: Uint8Array;
  ciphertextValidity: Uint8Array;
  range: Uint8Array;
  auditorCiphertextLo: Uint8Array;
  auditorCiphertextHi: Uint8Array;
}

export interface WithdrawProofInput {
  elgamalSecret: Uint8Array;
  availableBalance: Uint8Array;
  newAvailable: bigint;
  amount: bigint;
}

export interface WithdrawProofs {
  equality: Uint8Array;
  range: Uint8Array;
}

export interface ProofEngine {
  readonly name: ProofEngineName;
  /** The library doing the work, e.g. "solana-zk-sdk 8.1.0". */
  readonly library: string;
  pubkeyValidity(elgamalSecret: Uint8Array): Uint8Array;
  /** Shows that `ciphertext` encrypts zero under the secret's key (decryption proofs). */
  zeroCiphertext(elgamalSecret: Uint8Array, ciphertext: Uint8Array): Uint8Array;
  transfer(input: TransferProofInput): TransferProofs;
  withdraw(input: WithdrawProofInput): WithdrawProofs;
  /**
   * The amount a 64-byte ElGamal ciphertext holds under the secret's key when it fits 32 bits (a
   * discrete log: how the two halves of a pending balance are read); undefined when it holds none.
   */
  decryptU32(elgamalSecret: Uint8Array, ciphertext: Uint8Array): bigint | undefined;
  /** True when `data` is a well-formed proof of `kind` that verifies. */
  verify(kind: ProofKind, data: Uint8Array): boolean;
}
