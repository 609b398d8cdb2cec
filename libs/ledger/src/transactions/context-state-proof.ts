import {
  type Address,
  type Instruction,
  type InstructionPlan,
  type KeyPairSigner,
  type TransactionSigner,
  generateKeyPairSigner,
  sequentialInstructionPlan,
  singleInstructionPlan,
} from '@solana/kit';
import { closeContextStateProof } from '@solana-program/zk-elgamal-proof';
import { type PlannerRpc } from './plan-signing';

/** One of @solana-program/zk-elgamal-proof's verify* actions (create the context account + verify). */
export type VerifyProofAction = (input: {
  rpc: PlannerRpc;
  payer: TransactionSigner;
  proofData: Uint8Array;
  contextState: { contextAccount: KeyPairSigner; authority: Address };
}) => Promise<Instruction[]>;

export interface ContextStateProof {
  address: Address;
  /** Creates the context-state account and verifies the proof into it. */
  setup: InstructionPlan;
  /** Closes the context-state account, returning its rent to the payer. */
  cleanup: InstructionPlan;
}

/**
 * A proof verified into a fresh context-state account, as token-2022's instruction-plan helpers do it:
 * the setup is divisible (a large proof's verify does not fit next to the create-account), the
 * transfer or withdraw then reads the account, and the cleanup closes it.
 */
export async function contextStateProof(
  proofData: Uint8Array,
  verify: VerifyProofAction,
  payer: TransactionSigner,
  rpc: PlannerRpc,
): Promise<ContextStateProof> {
  const contextAccount = await generateKeyPairSigner();
  const setup = await verify({
    rpc,
    payer,
    proofData,
    contextState: { contextAccount, authority: payer.address },
  });
  return {
    address: contextAccount.address,
    setup: sequentialInstructionPlan(setup),
    cleanup: singleInstructionPlan(
      closeContextStateProof({
        contextState: contextAccount.address,
        authority: payer,
        destination: payer.address,
      }),
    ),
  };
}
