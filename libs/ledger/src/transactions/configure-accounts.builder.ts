import {
  type Address,
  type InstructionPlan,
  type TransactionSigner,
  nonDivisibleSequentialInstructionPlan,
  sequentialInstructionPlan,
} from '@solana/kit';
import {
  ExtensionType,
  TOKEN_2022_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getConfigureConfidentialTransferAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getReallocateInstruction,
} from '@solana-program/token-2022';
import { verifyPubkeyValidity } from '@solana-program/zk-elgamal-proof';
import { openAccountKeys } from '../keys/account-keys';
import { operatorSigner } from '../keys/seed-signer';
import { type ProofEngine } from '../proof-engine/proof-engine';
import { type ConfigureAccountsJob, type SignedTransactionPlan } from './build-job';
import { type PlannerRpc, planAndSign, rentOnlyRpc } from './plan-signing';

/** Token-2022's default: up to 65,536 credits between two ApplyPendingBalance. */
const MAXIMUM_PENDING_BALANCE_CREDIT_COUNTER = 1n << 16n;

/** ATA + reallocate + ConfigureAccount + pubkey-validity proof, one transaction per mint. */
export async function buildConfigureAccounts(
  job: ConfigureAccountsJob,
  engine: ProofEngine,
): Promise<SignedTransactionPlan> {
  const { signer, ae } = openAccountKeys(job.keys);
  const payer = operatorSigner(job.context.feePayerSeed);
  const rpc = rentOnlyRpc(job.context.rent);
  const decryptableZeroBalance = ae.encrypt(0n).toBytes();
  const plans = await Promise.all(
    job.mints.map((mint) =>
      configureAccount(
        { mint, owner: signer, payer, rpc, decryptableZeroBalance },
        engine,
        job.keys.elgamalSecret,
      ),
    ),
  );
  return planAndSign(sequentialInstructionPlan(plans), payer, job.context);
}

interface ConfigureInput {
  mint: Address;
  owner: TransactionSigner;
  payer: TransactionSigner;
  rpc: PlannerRpc;
  decryptableZeroBalance: Uint8Array;
}

/** As token-2022's getCreateConfidentialTransferAccountInstructionPlan, with the engine's proof. */
async function configureAccount(
  input: ConfigureInput,
  engine: ProofEngine,
  elgamalSecret: Uint8Array,
): Promise<InstructionPlan> {
  const [token] = await findAssociatedTokenPda({
    owner: input.owner.address,
    tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    mint: input.mint,
  });
  const [verifyProof] = await verifyPubkeyValidity({
    rpc: input.rpc,
    payer: input.payer,
    proofData: engine.pubkeyValidity(elgamalSecret),
  });
  return nonDivisibleSequentialInstructionPlan([
    getCreateAssociatedTokenIdempotentInstruction({
      ata: token,
      mint: input.mint,
      owner: input.owner.address,
      payer: input.payer,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    }),
    getReallocateInstruction({
      token,
      payer: input.payer,
      owner: input.owner,
      newExtensionTypes: [ExtensionType.ConfidentialTransferAccount],
    }),
    getConfigureConfidentialTransferAccountInstruction({
      token,
      mint: input.mint,
      authority: input.owner,
      decryptableZeroBalance: input.decryptableZeroBalance,
      maximumPendingBalanceCreditCounter: MAXIMUM_PENDING_BALANCE_CREDIT_COUNTER,
      proofInstructionOffset: 1,
    }),
    ...(verifyProof === undefined ? [] : [verifyProof]),
  ]);
}
