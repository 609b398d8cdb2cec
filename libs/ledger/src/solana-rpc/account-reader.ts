import { type Address, type MaybeEncodedAccount, decodeAccount, fetchEncodedAccounts } from '@solana/kit';
import {
  type Mint,
  type Token,
  TOKEN_2022_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getMintDecoder,
  getTokenDecoder,
} from '@solana-program/token-2022';
import { isConfidentialReady } from '../accounts/token-state';
import { AccountNotFoundError, LedgerError } from '../ledger.errors';
import { COMMITMENT, type LedgerRpc } from './ledger-rpc';

// Both are built once: token-2022's decodeMint/decodeToken build their (extension-laden) decoder on
// every call, and an associated token address is a PDA search (SHA-256 and a BigInt on-curve test per
// bump, ≈ 1 ms of CPU). Both were a large part of every account read's CPU.
const mintDecoder = getMintDecoder();
const tokenDecoder = getTokenDecoder();
const MAX_REMEMBERED_ADDRESSES = 10_000;
const associatedTokenAddresses = new Map<string, Address>();

/** Deterministic in (owner, mint), public data: remembered, at most MAX_REMEMBERED_ADDRESSES. */
export async function associatedTokenAddress(owner: Address, mint: Address): Promise<Address> {
  const key = `${owner}:${mint}`;
  const known = associatedTokenAddresses.get(key);
  if (known !== undefined) {
    return known;
  }
  const [address] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS });
  if (associatedTokenAddresses.size >= MAX_REMEMBERED_ADDRESSES) {
    // Map iteration is insertion order: forget the oldest.
    associatedTokenAddresses.delete(associatedTokenAddresses.keys().next().value as string);
  }
  associatedTokenAddresses.set(key, address);
  return address;
}

export interface TokenAccountsSnapshot {
  mint: Mint | null;
  tokens: (Token | null)[];
}

/** One getMultipleAccounts round trip for a mint and token accounts (one consistent slot). */
export async function readMintAndTokens(
  rpc: LedgerRpc,
  mint: Address,
  tokens: Address[],
  abortSignal: AbortSignal,
): Promise<TokenAccountsSnapshot> {
  const [mintAccount, ...tokenAccounts] = await fetchEncodedAccounts(rpc, [mint, ...tokens], {
    abortSignal,
    commitment: COMMITMENT,
  });
  const decodedMint =
    mintAccount?.exists === true && mintAccount.programAddress === TOKEN_2022_PROGRAM_ADDRESS
      ? decodeAccount(mintAccount, mintDecoder).data
      : null;
  return { mint: decodedMint, tokens: tokenAccounts.map(decodeToken) };
}

/** Token accounts alone, when the mint is not needed (one getMultipleAccounts round trip). */
export async function readTokens(
  rpc: LedgerRpc,
  tokens: Address[],
  abortSignal: AbortSignal,
): Promise<(Token | null)[]> {
  const accounts = await fetchEncodedAccounts(rpc, tokens, { abortSignal, commitment: COMMITMENT });
  return accounts.map(decodeToken);
}

function decodeToken(account: MaybeEncodedAccount): Token | null {
  return account.exists && account.programAddress === TOKEN_2022_PROGRAM_ADDRESS
    ? decodeAccount(account, tokenDecoder).data
    : null;
}

export interface TokenRole {
  address: Address;
  /** How the error message names it: source, recipient, account. */
  role: string;
}

export function requireConfidential(token: Token | null, { address, role }: TokenRole): Token {
  if (token === null) {
    throw new AccountNotFoundError(`the ${role} token account ${address} does not exist`);
  }
  if (!isConfidentialReady(token)) {
    throw new LedgerError(
      'account_not_confidential',
      `the ${role} token account ${address} is not configured for confidential transfers`,
    );
  }
  return token;
}

export async function readConfidentialToken(
  rpc: LedgerRpc,
  token: TokenRole,
  abortSignal: AbortSignal,
): Promise<Token> {
  const [state] = await readTokens(rpc, [token.address], abortSignal);
  return requireConfidential(state ?? null, token);
}
