import { createHash } from 'node:crypto';
import {
  type Address,
  type InstructionPlan,
  type KeyPairSigner,
  generateKeyPairSigner,
  getBase58Decoder,
  lamports,
} from '@solana/kit';
import { getCreateMintInstructionPlan } from '@solana-program/token-2022';
import { type LedgerAsset, type LedgerEnvironment } from '../ledger.port';
import { planAndSign } from '../transactions/plan-signing';
import { type LocalLedgerRuntime } from './local-runtime';

export interface LocalLedgerGenesis {
  environment: LedgerEnvironment;
  genesisHash: string;
  feePayer: Address;
  mintAuthority: Address;
  assets: LedgerAsset[];
}

export const LOCAL_ASSETS: readonly Omit<LedgerAsset, 'mint'>[] = [
  { code: 'USDC', decimals: 6 },
  { code: 'SOL', decimals: 9 },
];

const FEE_PAYER_LAMPORTS = 10n ** 15n;

/**
 * First start of an environment: fund the fee payer and create each asset as a Token-2022 mint with the
 * ConfidentialTransferMint extension (auto-approve, no auditor). Goes through submitTransaction like any
 * client transaction, so the result is tracked and persisted the same way.
 */
export async function runGenesis(
  runtime: LocalLedgerRuntime,
  feePayer: KeyPairSigner,
  mintAuthority: KeyPairSigner,
): Promise<LocalLedgerGenesis> {
  runtime.airdrop(feePayer.address, FEE_PAYER_LAMPORTS);
  const assets: LedgerAsset[] = [];
  for (const asset of LOCAL_ASSETS) {
    const mint = await generateKeyPairSigner();
    const plan = await getCreateMintInstructionPlan(
      {
        getMinimumBalance: (space: number) =>
          Promise.resolve(lamports(runtime.minimumBalance(BigInt(space)))),
      },
      {
        payer: feePayer,
        newMint: mint,
        decimals: asset.decimals,
        mintAuthority,
        extensions: [
          {
            __kind: 'ConfidentialTransferMint',
            authority: mintAuthority.address,
            autoApproveNewAccounts: true,
            auditorElgamalPubkey: null,
          },
        ],
      },
    );
    await submitPlan(runtime, plan, feePayer);
    assets.push({ ...asset, mint: mint.address });
  }
  const digest = createHash('sha256')
    .update(`${runtime.environment}:${feePayer.address}:${Date.now()}`)
    .digest();
  const genesisHash = getBase58Decoder().decode(digest);
  return {
    environment: runtime.environment,
    genesisHash,
    feePayer: feePayer.address,
    mintAuthority: mintAuthority.address,
    assets,
  };
}

async function submitPlan(
  runtime: LocalLedgerRuntime,
  plan: InstructionPlan,
  feePayer: KeyPairSigner,
): Promise<void> {
  const { transactions } = await planAndSign(plan, feePayer, runtime.block());
  for (const transaction of transactions) {
    const outcome = runtime.submitTransaction(new Uint8Array(Buffer.from(transaction.wire, 'base64')), {
      skipPreflight: false,
    });
    if (outcome.kind !== 'landed') {
      const detail = outcome.kind === 'invalid' ? outcome.message : outcome.report.logs.join('\n');
      throw new Error(`local ledger genesis failed: ${detail}`);
    }
  }
}
