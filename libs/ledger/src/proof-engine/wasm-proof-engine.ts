import { subtractAmount, zk } from '@cts/crypto';
import { ristretto255 } from '@noble/curves/ed25519.js';
import {
  type ProofEngine,
  type ProofKind,
  type TransferProofInput,
  type WithdrawProofInput,
} from './proof-engine';

const Point = ristretto255.Point;
const AMOUNT_LO_BITS = 16n;
const REMAINING_BALANCE_BITS = 64;
const AMOUNT_HI_BITS = 32;
const RANGE_PADDING_BITS = 16;

const PROOF_DATA: Record<ProofKind, { fromBytes(bytes: Uint8Array): { verify(): void } }> = {
  'pubkey-validity': zk.PubkeyValidityProofData,
  'zero-ciphertext': zk.ZeroCiphertextProofData,
  'ciphertext-commitment-equality': zk.CiphertextCommitmentEqualityProofData,
  'batched-grouped-ciphertext-3-handles-validity': zk.BatchedGroupedCiphertext3HandlesValidityProofData,
  'batched-range-u64': zk.BatchedRangeProofU64Data,
  'batched-range-u128': zk.BatchedRangeProofU128Data,
};

function keypairOf(secret: Uint8Array) {
  return zk.ElGamalKeypair.fromSecretKey(zk.ElGamalSecretKey.fromBytes(secret));
}

function ciphertextOf(bytes: Uint8Array) {
  const ciphertext = zk.ElGamalCiphertext.fromBytes(bytes);
  if (ciphertext === undefined) {
    throw new Error('not an ElGamal ciphertext');
  }
  return ciphertext;
}

/** Commitment ‖ the handle at `index` of a grouped ciphertext: that key holder's own ciphertext. */
function handleCiphertext(grouped: Uint8Array, index: number): Uint8Array {
  const ciphertext = new Uint8Array(64);
  ciphertext.set(grouped.subarray(0, 32), 0);
  ciphertext.set(grouped.subarray(32 + index * 32, 64 + index * 32), 32);
  return ciphertext;
}

/** available − (lo + hi·2^16), point by point: @solana/zk-sdk has no ciphertext arithmetic. */
function subtractLoHi(available: Uint8Array, lo: Uint8Array, hi: Uint8Array): Uint8Array {
  const half = (bytes: Uint8Array, start: number) => Point.fromBytes(bytes.subarray(start, start + 32));
  const scale = 1n << AMOUNT_LO_BITS;
  const combined = (start: number) =>
    half(available, start)
      .subtract(half(lo, start).add(half(hi, start).multiply(scale)))
      .toBytes();
  const result = new Uint8Array(64);
  result.set(combined(0), 0);
  result.set(combined(32), 32);
  return result;
}

/** The WebAssembly engine: @solana/zk-sdk's Node build, computing what token-2022's helpers compute. */
export function createWasmProofEngine(): ProofEngine {
  return {
    name: 'wasm',
    library: '@solana/zk-sdk 0.4.1 (WebAssembly)',
    pubkeyValidity: (secret) => new zk.PubkeyValidityProofData(keypairOf(secret)).toBytes(),
    zeroCiphertext: (secret, ciphertext) =>
      new zk.ZeroCiphertextProofData(keypairOf(secret), ciphertextOf(ciphertext)).toBytes(),
    transfer: buildTransferProofs,
    withdraw: buildWithdrawProofs,
    decryptU32(secret, ciphertext) {
      const key = zk.ElGamalSecretKey.fromBytes(secret);
      const parsed = ciphertextOf(ciphertext);
      try {
        return key.decrypt(parsed);
      } catch {
        return undefined;
      } finally {
        key.free();
        parsed.free();
      }
    },
    verify(kind, data) {
      try {
        PROOF_DATA[kind].fromBytes(data).verify();
        return true;
      } catch {
        return false;
      }
    },
  };
}

function buildTransferProofs(input: TransferProofInput) {
  const amountLo = input.amount & ((1n << AMOUNT_LO_BITS) - 1n);
  const amountHi = input.amount >> AMOUNT_LO_BITS;
  if (amountHi >> BigInt(AMOUNT_HI_BITS) !== 0n) {
    throw new Error('a confidential transfer amount must fit in 48 bits');
  }
  const source = keypairOf(input.elgamalSecret);
  const sourcePubkey = source.pubkey();
  const destination = zk.ElGamalPubkey.fromBytes(input.destinationPubkey);
  const auditor = zk.ElGamalPubkey.fromBytes(input.auditorPubkey);
  const openingLo = new zk.PedersenOpening();
  const openingHi = new zk.PedersenOpening();
  const groupedLo = zk.GroupedElGamalCiphertext3Handles.encryptWith(
    sourcePubkey,
    destination,
    auditor,
    amountLo,
    openingLo,
  );
  const groupedHi = zk.GroupedElGamalCiphertext3Handles.encryptWith(
    sourcePubkey,
    destination,
    auditor,
    amountHi,
    openingHi,
  );
  const groupedLoBytes = groupedLo.toBytes();
  const groupedHiBytes = groupedHi.toBytes();

  const newAvailableOpening = new zk.PedersenOpening();
  const newAvailableCommitment = zk.PedersenCommitment.from(input.newAvailable, newAvailableOpening);
  const newAvailableCiphertext = subtractLoHi(
    input.availableBalance,
    handleCiphertext(groupedLoBytes, 0),
    handleCiphertext(groupedHiBytes, 0),
  );
  const equality = new zk.CiphertextCommitmentEqualityProofData(
    source,
    ciphertextOf(newAvailableCiphertext),
    newAvailableCommitment,
    newAvailableOpening,
    input.newAvailable,
  );
  const ciphertextValidity = new zk.BatchedGroupedCiphertext3HandlesValidityProofData(
    sourcePubkey,
    destination,
    auditor,
    groupedLo,
    groupedHi,
    amountLo,
    amountHi,
    openingLo,
    openingHi,
  );
  const paddingOpening = new zk.PedersenOpening();
  // WARNING: the range proof consumes the commitments and openings passed in its arrays; it comes last.
  const range = new zk.BatchedRangeProofU128Data(
    [
      newAvailableCommitment,
      zk.PedersenCommitment.fromBytes(groupedLoBytes.slice(0, 32)),
      zk.PedersenCommitment.fromBytes(groupedHiBytes.slice(0, 32)),
      zk.PedersenCommitment.from(0n, paddingOpening),
    ],
    new BigUint64Array([input.newAvailable, amountLo, amountHi, 0n]),
    Uint8Array.from([REMAINING_BALANCE_BITS, Number(AMOUNT_LO_BITS), AMOUNT_HI_BITS, RANGE_PADDING_BITS]),
    [newAvailableOpening, openingLo, openingHi, paddingOpening],
  );
  return {
    equality: equality.toBytes(),
    ciphertextValidity: ciphertextValidity.toBytes(),
    range: range.toBytes(),
    auditorCiphertextLo: handleCiphertext(groupedLoBytes, 2),
    auditorCiphertextHi: handleCiphertext(groupedHiBytes, 2),
  };
}

function buildWithdrawProofs(input: WithdrawProofInput) {
  const keypair = keypairOf(input.elgamalSecret);
  const remaining = subtractAmount(input.availableBalance, input.amount);
  if (remaining === undefined) {
    throw new Error('the available balance is not an ElGamal ciphertext');
  }
  const opening = new zk.PedersenOpening();
  const commitment = zk.PedersenCommitment.from(input.newAvailable, opening);
  const equality = new zk.CiphertextCommitmentEqualityProofData(
    keypair,
    ciphertextOf(remaining),
    commitment,
    opening,
    input.newAvailable,
  );
  const range = new zk.BatchedRangeProofU64Data(
    [commitment],
    new BigUint64Array([input.newAvailable]),
    Uint8Array.from([REMAINING_BALANCE_BITS]),
    [opening],
  );
  return { equality: equality.toBytes(), range: range.toBytes() };
}
