import { FeatureSet, LiteSVM } from 'litesvm';
import { address, getAddressEncoder } from '@solana/kit';

/**
 * The feature gate that re-enabled the ZK ElGamal proof program after its 2025 pause. Without it the
 * program answers "zk-elgamal-proof program is temporarily disabled", which is what mainnet and devnet
 * did while confidential transfers were paused.
 */
export const ZK_ELGAMAL_PROOF_REENABLE_FEATURE = address('zkexuyPRdyTVbZqEAREueqL2xvvoBhRgth9xGSc1tMN');

const FAUCET_LAMPORTS = 10n ** 18n;

export interface SvmOptions {
  zkElGamalProofProgram: 'enabled' | 'disabled';
}

export function createSvm(options: SvmOptions): LiteSVM {
  const features = FeatureSet.allEnabled();
  if (options.zkElGamalProofProgram === 'disabled') {
    features.deactivate(new Uint8Array(getAddressEncoder().encode(ZK_ELGAMAL_PROOF_REENABLE_FEATURE)));
  }
  return (
    LiteSVM.default()
      .withFeatureSet(features)
      .withBuiltins()
      .withSysvars()
      .withPrecompiles()
      .withDefaultPrograms()
      .withLamports(FAUCET_LAMPORTS)
      .withSigverify(true)
      // BlockClock owns blockhash validity and the runtime owns duplicate detection (it persists it).
      .withBlockhashCheck(false)
      .withTransactionHistory(0n)
  );
}
