import { getAddressEncoder, isSome, parallelInstructionPlan, sequentialInstructionPlan } from '@solana/kit';
import { getConfidentialTransferInstruction } from '@solana-program/token-2022';
import {
  verifyBatchedGroupedCiphertext3HandlesValidity,
  verifyBatchedRangeProofU128,
  verifyCiphertextCommitmentEquality,
} from '@solana-program/zk-elgamal-proof';
import { confidentialExtensionOf, confidentialMintExtensionOf } from '../accounts/token-state';
import { openAccountKeys } from '../keys/account-keys';
import { operatorSigner } from '../keys/seed-signer';
import { LedgerError } from '../ledger.errors';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { assertCovers, decryptAvailable } from './balance-decryption';
import { type ConfidentialTransferJob, type SignedTransactionPlan } from './build-job';
import { contextStateProof } from './context-state-proof';
import { planAndSign, rentOnlyRpc } from './plan-signing';

const NO_AUDITOR = new Uint8Array(32);

/**
 * Equality, ciphertext-validity and range proofs (the CPU cost, done by the engine), each verified
 * into a context-state account, then the transfer and the cleanup: about 5 transactions.
 */
export async function buildConfidentialTransfer(
  job: ConfidentialTransferJob,
  engine: ProofEngine,
): Promise<SignedTransactionPlan> {
  const source = confidentialExtensionOf(job.sourceState);
  if (source === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the source account is not configured for confidential transfers',
    );
  }
  const destination = confidentialExtensionOf(job.destinationState);
  if (destination === null) {
    throw new LedgerError(
      'account_not_confidential',
      'the destination account is not configured for confidential transfers',
    );
  }
  const mint = confidentialMintExtensionOf(job.mintState);
  if (mint === null) {
    throw new LedgerError('asset_misconfigured', 'the mint is not configured for confidential transfers');
  }
  const { signer, ae } = openAccountKeys(job.keys);
  const available = decryptAvailable(source, ae);
  assertCovers(available, job.amount);
  const newAvailable = available - job.amount;
  const addressBytes = getAddressEncoder();
  const proofs = engine.transfer({
    elgamalSecret: job.keys.elgamalSecret,
    availableBalance: new Uint8Array(source.availableBalance),
    newAvailable,
    amount: job.amount,
    destinationPubkey: new Uint8Array(addressBytes.encode(destination.elgamalPubkey)),
    auditorPubkey: isSome(mint.auditorElgamalPubkey)
      ? new Uint8Array(addressBytes.encode(mint.auditorElgamalPubkey.value))
      : NO_AUDITOR,
  });

  const payer = operatorSigner(job.context.feePayerSeed);
  const rpc = rentOnlyRpc(job.context.rent);
  const [equality, validity, range] = await Promise.all([
    contextStateProof(proofs.equality, verifyCiphertextCommitmentEquality, payer, rpc),
    contextStateProof(proofs.ciphertextValidity, verifyBatchedGroupedCiphertext3HandlesValidity, payer, rpc),
    contextStateProof(proofs.range, verifyBatchedRangeProofU128, payer, rpc),
  ]);
  const transfer = getConfidentialTransferInstruction({
    sourceToken: job.source,
    mint: job.mint,
    destinationToken: job.destination,
    equalityRecord: equality.address,
    ciphertextValidityRecord: validity.address,
    rangeRecord: range.address,
    authority: signer,
    newSourceDecryptableAvailableBalance: ae.encrypt(newAvailable).toBytes(),
    transferAmountAuditorCiphertextLo: proofs.auditorCiphertextLo,
    transferAmountAuditorCiphertextHi: proofs.auditorCiphertextHi,
    equalityProofInstructionOffset: 0,
    ciphertextValidityProofInstructionOffset: 0,
    rangeProofInstructionOffset: 0,
  });
  const plan = sequentialInstructionPlan([
    parallelInstructionPlan([equality.setup, validity.setup, range.setup]),
    transfer,
    parallelInstructionPlan([equality.cleanup, validity.cleanup, range.cleanup]),
  ]);
  return planAndSign(plan, payer, job.context);
}
