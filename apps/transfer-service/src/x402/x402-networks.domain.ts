import { type Environment } from '@cts/contracts';

/**
 * CAIP-2 ids of the Solana clusters (`solana:` + the first 32 characters of the genesis hash), as the
 * x402 packages name them. A test key pays on devnet's or testnet's id (the local ledger stands in for
 * them), a live key only on mainnet's: test and live never pay on each other's network.
 */
export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
export const SOLANA_TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';

const NETWORKS: Record<Environment, readonly string[]> = {
  test: [SOLANA_DEVNET, SOLANA_TESTNET],
  live: [SOLANA_MAINNET],
};

/** Whether a key of `environment` may pay on `network`. */
export const networkServes = (environment: Environment, network: string): boolean =>
  NETWORKS[environment].includes(network);
