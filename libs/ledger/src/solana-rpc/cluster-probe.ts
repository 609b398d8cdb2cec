import { zk } from '@cts/crypto';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  fetchEncodedAccounts,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { TOKEN_2022_PROGRAM_ADDRESS, decodeMint } from '@solana-program/token-2022';
import { verifyPubkeyValidity } from '@solana-program/zk-elgamal-proof';
import { confidentialMintExtensionOf } from '../accounts/token-state';
import { ConfidentialTransfersUnavailableError, LedgerError } from '../ledger.errors';
import { type LedgerAsset } from '../ledger.port';
import { operatorSigner } from '../keys/seed-signer';
import { type RentSchedule } from '../transactions/build-job';
import { rentOnlyRpc } from '../transactions/plan-signing';
import { COMMITMENT, type LedgerRpc, withDeadline } from './ledger-rpc';

export interface ProbeInput {
  rpc: LedgerRpc;
  feePayerSeed: Uint8Array;
  assets: LedgerAsset[];
  timeoutMs: number;
}

/**
 * Fail fast, within `timeoutMs` whatever the RPC does: the cluster answers, the ZK ElGamal proof program
 * verifies a real proof (simulated, so nothing is spent), every asset mint is a Token-2022 mint with the
 * ConfidentialTransferMint extension. Returns the rent schedule the transaction builders need.
 */
export async function probeConfidentialTransfers(input: ProbeInput): Promise<RentSchedule> {
  const abortSignal = AbortSignal.timeout(input.timeoutMs);
  const unreachable = (cause?: unknown) =>
    new ConfidentialTransfersUnavailableError(
      'rpc_unreachable',
      `the Solana RPC did not answer within ${input.timeoutMs} ms${cause === undefined ? '' : `: ${messageOf(cause)}`}`,
      { cause },
    );
  const probe = async () => {
    const [rentBase, rentOneByte, accounts, simulation] = await Promise.all([
      input.rpc.getMinimumBalanceForRentExemption(0n).send({ abortSignal }),
      input.rpc.getMinimumBalanceForRentExemption(1n).send({ abortSignal }),
      fetchEncodedAccounts(
        input.rpc,
        [operatorSigner(input.feePayerSeed).address, ...input.assets.map((asset) => asset.mint)],
        {
          abortSignal,
          commitment: COMMITMENT,
        },
      ),
      simulateProofVerification(input, abortSignal),
    ]).catch((error: unknown) => {
      throw unreachable(error);
    });
    const [feePayerAccount, ...mintAccounts] = accounts;
    if (feePayerAccount?.exists !== true) {
      throw new LedgerError(
        'fee_payer_unfunded',
        `the fee payer ${operatorSigner(input.feePayerSeed).address} has no SOL on this cluster`,
      );
    }
    if (simulation.err !== null) {
      throw new ConfidentialTransfersUnavailableError(
        'proof_program_disabled',
        `confidential transfers are unavailable on this cluster: the ZK ElGamal proof program rejected a valid ` +
          `proof (${messageOf(simulation.err)}; ${simulation.logs.slice(-2).join(' | ')}). Mainnet and devnet ` +
          `paused this program in 2025; use the local ledger or a cluster where it is enabled.`,
      );
    }
    input.assets.forEach((asset, index) => checkMint(asset, mintAccounts[index]));
    return { baseLamports: rentBase, lamportsPerByte: rentOneByte - rentBase };
  };
  return withDeadline(probe(), input.timeoutMs, () => unreachable());
}

async function simulateProofVerification(input: ProbeInput, abortSignal: AbortSignal) {
  const { value: latest } = await input.rpc
    .getLatestBlockhash({ commitment: COMMITMENT })
    .send({ abortSignal });
  const feePayer = operatorSigner(input.feePayerSeed);
  const proof = new zk.PubkeyValidityProofData(new zk.ElGamalKeypair());
  const instructions = await verifyPubkeyValidity({
    rpc: rentOnlyRpc({ baseLamports: 0n, lamportsPerByte: 0n }),
    payer: feePayer,
    proofData: proof.toBytes(),
  });
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(latest, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
  const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  const { value } = await input.rpc
    .simulateTransaction(wire, { encoding: 'base64', commitment: COMMITMENT, replaceRecentBlockhash: true })
    .send({ abortSignal });
  return { err: value.err, logs: value.logs ?? [] };
}

function checkMint(
  asset: LedgerAsset,
  account: Awaited<ReturnType<typeof fetchEncodedAccounts>>[number] | undefined,
): void {
  const unavailable = (why: string) =>
    new ConfidentialTransfersUnavailableError(
      'mint_not_confidential',
      `asset ${asset.code} (mint ${asset.mint}) ${why}`,
    );
  if (account?.exists !== true) {
    throw unavailable('does not exist on this cluster');
  }
  if (account.programAddress !== TOKEN_2022_PROGRAM_ADDRESS) {
    throw unavailable('is not a Token-2022 mint, so it cannot carry the confidential transfer extension');
  }
  const mint = decodeMint(account).data;
  if (confidentialMintExtensionOf(mint) === null) {
    throw unavailable('has no ConfidentialTransferMint extension');
  }
  if (mint.decimals !== asset.decimals) {
    throw new LedgerError(
      'asset_misconfigured',
      `asset ${asset.code}: mint has ${mint.decimals} decimals, configured ${asset.decimals}`,
    );
  }
}

function messageOf(value: unknown): string {
  if (value instanceof Error) {
    return value.message;
  }
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}
