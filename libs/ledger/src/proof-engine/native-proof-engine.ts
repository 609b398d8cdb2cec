import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ProofEngine,
  type ProofKind,
  type TransferProofInput,
  type TransferProofs,
  type WithdrawProofInput,
  type WithdrawProofs,
} from './proof-engine';

/** The addon's exports (libs/ledger/native/engine/src/lib.rs). */
interface ZkEngineAddon {
  engineVersion(): string;
  pubkeyValidityProof(elgamalSecret: Uint8Array): Buffer;
  zeroCiphertextProof(elgamalSecret: Uint8Array, ciphertext: Uint8Array): Buffer;
  transferProofs(
    elgamalSecret: Uint8Array,
    availableBalance: Uint8Array,
    newAvailable: bigint,
    amount: bigint,
    destinationPubkey: Uint8Array,
    auditorPubkey: Uint8Array,
  ): TransferProofs;
  withdrawProofs(
    elgamalSecret: Uint8Array,
    availableBalance: Uint8Array,
    newAvailable: bigint,
    amount: bigint,
  ): WithdrawProofs;
  decryptU32(elgamalSecret: Uint8Array, ciphertext: Uint8Array): bigint | null;
  verifyProof(kind: ProofKind, data: Uint8Array): boolean;
}

export const NATIVE_ADDON_FILE = 'cts-zk-engine.node';

/**
 * Where tools/build-native.mjs puts the addon: libs/ledger/native/, reached from this file in the
 * sources (libs/ledger/src/proof-engine) or in the compiled tree (dist/libs/ledger/proof-engine).
 */
export function nativeAddonPath(directory: string = __dirname): string | null {
  const candidates = [
    join(directory, '..', '..', 'native', NATIVE_ADDON_FILE),
    join(directory, '..', '..', '..', '..', 'libs', 'ledger', 'native', NATIVE_ADDON_FILE),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/** Loads the addon; throws when it is not built or cannot load (the caller falls back to WebAssembly). */
export function loadNativeProofEngine(path: string | null = nativeAddonPath()): ProofEngine {
  if (path === null) {
    throw new Error(`${NATIVE_ADDON_FILE} is not built (no cargo when the project was installed?)`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const addon = require(path) as ZkEngineAddon;
  const plain = (bytes: Buffer) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    name: 'native',
    library: `${addon.engineVersion()} (native)`,
    pubkeyValidity: (secret) => plain(addon.pubkeyValidityProof(secret)),
    zeroCiphertext: (secret, ciphertext) => plain(addon.zeroCiphertextProof(secret, ciphertext)),
    transfer(input: TransferProofInput) {
      const proofs = addon.transferProofs(
        input.elgamalSecret,
        input.availableBalance,
        input.newAvailable,
        input.amount,
        input.destinationPubkey,
        input.auditorPubkey,
      );
      return {
        equality: plain(proofs.equality as Buffer),
        ciphertextValidity: plain(proofs.ciphertextValidity as Buffer),
        range: plain(proofs.range as Buffer),
        auditorCiphertextLo: plain(proofs.auditorCiphertextLo as Buffer),
        auditorCiphertextHi: plain(proofs.auditorCiphertextHi as Buffer),
      };
    },
    withdraw(input: WithdrawProofInput) {
      const proofs = addon.withdrawProofs(
        input.elgamalSecret,
        input.availableBalance,
        input.newAvailable,
        input.amount,
      );
      return { equality: plain(proofs.equality as Buffer), range: plain(proofs.range as Buffer) };
    },
    decryptU32: (secret, ciphertext) => addon.decryptU32(secret, ciphertext) ?? undefined,
    verify: (kind, data) => addon.verifyProof(kind, data),
  };
}
