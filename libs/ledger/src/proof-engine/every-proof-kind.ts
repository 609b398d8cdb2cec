import { zk } from '@cts/crypto';
import { type ProofEngine, type ProofKind, type TransferProofInput } from './proof-engine';

/** A fresh ElGamal key and its balance encrypted under it, as a ledger account holds them. */
export function sampleAccount(balance: bigint) {
  const keypair = new zk.ElGamalKeypair();
  return {
    secret: keypair.secret().toBytes(),
    pubkey: keypair.pubkey().toBytes(),
    available: keypair.pubkey().encryptU64(balance).toBytes(),
  };
}

/** A transfer's proof input from fresh keys: 0.07 of 1 USDC to a destination, with an auditor. */
export function sampleTransferInput(): TransferProofInput {
  const source = sampleAccount(1_000_000n);
  return {
    elgamalSecret: source.secret,
    availableBalance: source.available,
    newAvailable: 1_000_000n - 70_000n,
    amount: 70_000n,
    destinationPubkey: sampleAccount(0n).pubkey,
    auditorPubkey: sampleAccount(0n).pubkey,
  };
}

/**
 * One proof of every kind the service generates, built by `engine` from fresh keys: what the parity
 * test and the CI verifier (tools/check-proofs.mjs) check.
 */
export function proofsOfEveryKind(engine: ProofEngine): Record<ProofKind, Uint8Array> {
  const source = sampleAccount(1_000_000n);
  const destination = sampleAccount(0n);
  const auditor = sampleAccount(0n);
  const transfer = engine.transfer({
    elgamalSecret: source.secret,
    availableBalance: source.available,
    newAvailable: 1_000_000n - 70_000n,
    amount: 70_000n,
    destinationPubkey: destination.pubkey,
    auditorPubkey: auditor.pubkey,
  });
  const withdraw = engine.withdraw({
    elgamalSecret: source.secret,
    availableBalance: source.available,
    newAvailable: 400_000n,
    amount: 600_000n,
  });
  return {
    'pubkey-validity': engine.pubkeyValidity(source.secret),
    'zero-ciphertext': engine.zeroCiphertext(destination.secret, destination.available),
    'ciphertext-commitment-equality': transfer.equality,
    'batched-grouped-ciphertext-3-handles-validity': transfer.ciphertextValidity,
    'batched-range-u128': transfer.range,
    'batched-range-u64': withdraw.range,
  };
}
