import { sequentialInstructionPlan } from '@solana/kit';
import { getCreateConfidentialTransferAccountInstructionPlan } from './confidential-helpers';
import { elgamalKeypairOf, openAccountKeys, signerFromSeed } from '../keys/account-keys';
import { type ConfigureAccountsJob, type SignedTransactionPlan } from './build-job';
import { planAndSign, rentOnlyRpc } from './plan-signing';
import { zk } from '@cts/crypto';

/** ATA + reallocate + ConfigureAccount + pubkey-validity proof, one transaction per mint. */
export async function buildConfigureAccounts(job: ConfigureAccountsJob): Promise<SignedTransactionPlan> {
  const { signer } = await openAccountKeys(job.keys);
  const payer = await signerFromSeed(job.context.feePayerSeed);
  const rpc = rentOnlyRpc(job.context.rent);
  const plans = await Promise.all(
    job.mints.map((mint) =>
      getCreateConfidentialTransferAccountInstructionPlan({
        payer,
        owner: signer,
        mint,
        rpc,
        elgamalKeypair: elgamalKeypairOf(job.keys),
        aesKey: zk.AeKey.fromBytes(job.keys.aeKey),
      }),
    ),
  );
  return planAndSign(sequentialInstructionPlan(plans), payer, job.context);
}
