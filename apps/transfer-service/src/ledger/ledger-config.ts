import { join } from 'node:path';
import { type Environment } from '@cts/contracts';
import { decodeBase64 } from '@cts/crypto';
import { type LedgerAsset } from '@cts/ledger';
import { type AppConfig } from '@cts/platform';
import { address } from '@solana/kit';

/** Where one environment's ledger is (ARCHITECTURE §2, §5). */
export type LedgerTarget =
  | { kind: 'in-process'; stateDir: string }
  | { kind: 'local-server'; url: string; stateDir: string }
  | { kind: 'cluster'; url: string; assets: LedgerAsset[]; feePayerSeed: Uint8Array };

export function ledgerTargetOf(config: AppConfig, environment: Environment): LedgerTarget {
  const stateDir = config.LEDGER_STATE_DIR ?? join(config.CTS_DATA_DIR, 'ledger');
  const url = environment === 'test' ? config.LEDGER_RPC_URL_TEST : config.LEDGER_RPC_URL_LIVE;
  const assets = environment === 'test' ? config.LEDGER_ASSETS_TEST : config.LEDGER_ASSETS_LIVE;
  if (!url) {
    return { kind: 'in-process', stateDir };
  }
  if (!assets) {
    return { kind: 'local-server', url, stateDir };
  }
  const seedVariable = `LEDGER_FEE_PAYER_KEY_${environment.toUpperCase()}`;
  const seed = decodeBase64(
    (environment === 'test' ? config.LEDGER_FEE_PAYER_KEY_TEST : config.LEDGER_FEE_PAYER_KEY_LIVE) ?? '',
  );
  if (seed?.length !== 32) {
    throw new Error(
      `${seedVariable} must be a base64 32-byte seed when LEDGER_ASSETS_${environment.toUpperCase()} is set`,
    );
  }
  return { kind: 'cluster', url, assets: parseAssetRegistry(assets), feePayerSeed: seed };
}

/** `USDC=<mint>:6,SOL=<mint>:9` → the asset registry of a real cluster. */
export function parseAssetRegistry(text: string): LedgerAsset[] {
  return text.split(',').map((entry) => {
    const match = /^\s*([A-Z]{2,10})=([1-9A-HJ-NP-Za-km-z]{32,44}):(\d{1,2})\s*$/.exec(entry);
    if (!match) {
      throw new Error(`invalid asset entry "${entry}": expected CODE=<mint address>:<decimals>`);
    }
    const [, code = '', mint = '', decimals = '0'] = match;
    return { code, mint: address(mint), decimals: Number(decimals) };
  });
}
