import { type Address, type Signature } from '@solana/kit';
import { type Token } from '@solana-program/token-2022';
import { confidentialExtensionOf } from '../accounts/token-state';
import { assertKeyMaterial, ownerAddressOf } from '../keys/account-keys';
import { LedgerError } from '../ledger.errors';
import {
  type AccountKeyMaterial,
  type ApplyPendingResult,
  type ConfidentialTransferRequest,
  type ExactPaymentRequest,
  type PublicBalanceResult,
  type SignedExactPayment,
  type LedgerAccountView,
  type LedgerAsset,
  type LedgerEnvironment,
  type LedgerPort,
  type LedgerSubmission,
  type SignatureOutcome,
  type StandardTransferRequest,
} from '../ledger.port';
import { type ProofPool, type ProofPoolStats, createProofPool } from '../proof-pool/proof-pool';
import { type BuildJob, type RentSchedule, type SigningContext } from '../transactions/build-job';
import { buildExactPayment } from '../transactions/exact-payment.builder';
import { associatedTokenAddress, readConfidentialToken } from './account-reader';
import { applyUntilUnraced, creditRaced } from './credit-race';
import { readAccountView } from './account-view';
import { lackingPublicAmount, missingMints, usablePublicAmount } from './missing-mints';
import { assertConfidentialAmount, assertStandardAmount, fundingAuthority } from './ledger-guards';
import { probeConfidentialTransfers } from './cluster-probe';
import { KeyedMutex } from './keyed-mutex';
import { COMMITMENT, DEFAULT_TIMEOUTS, type LedgerRpc, type LedgerTimeouts, rpcAnswers } from './ledger-rpc';
import { type SolanaRpcLedgerConfig, TRANSFER_BLOCKHASH_REUSE_MS } from './solana-rpc-ledger.config';
import { sendPlan, signatureOutcome } from './transaction-sender';
import { RecentValue } from './recent-value';
import { readTransfer, TransferReading } from './transfer-reading';

export { type SolanaRpcLedgerConfig, TRANSFER_BLOCKHASH_REUSE_MS } from './solana-rpc-ledger.config';

/** The ledger port over Solana JSON-RPC: one code path for devnet, mainnet and the local runtime. */
export class SolanaRpcLedger implements LedgerPort {
  readonly environment: LedgerEnvironment;
  private readonly rpc: LedgerRpc;
  private readonly pool: ProofPool;
  private readonly ownsPool: boolean;
  private readonly timeouts: LedgerTimeouts;
  private readonly accountLocks = new KeyedMutex();
  readonly isReachable = (timeoutMs: number): Promise<boolean> => rpcAnswers(this.config.rpc, timeoutMs);
  private probing: Promise<void> | null = null;
  private rent: RentSchedule | null = null;
  /** Transfers in close succession read one blockhash: a round trip less on most of them under load. */
  private readonly transferContext: RecentValue<SigningContext>;

  constructor(private readonly config: SolanaRpcLedgerConfig) {
    this.environment = config.environment;
    this.rpc = config.rpc;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...config.timeouts };
    this.ownsPool = config.proofPool === undefined;
    this.pool = config.proofPool ?? createProofPool();
    this.transferContext = new RecentValue(
      () => this.signingContext(),
      config.transferBlockhashReuseMs ?? TRANSFER_BLOCKHASH_REUSE_MS,
    );
  }

  init(): Promise<void> {
    this.probing ??= (async () => {
      this.rent = await probeConfidentialTransfers({
        rpc: this.rpc,
        feePayerSeed: this.config.feePayerSeed,
        assets: this.config.assets,
        timeoutMs: this.timeouts.initMs,
      });
    })().catch((error: unknown) => {
      // Not cached: the next operation probes again (the cluster may have come back).
      this.probing = null;
      throw error;
    });
    return this.probing;
  }

  assets(): LedgerAsset[] {
    return this.config.assets.map((asset) => ({ ...asset }));
  }

  proofPoolStats(): ProofPoolStats {
    return this.pool.stats();
  }

  async openAccounts(keys: AccountKeyMaterial): Promise<Address> {
    assertKeyMaterial(keys);
    const owner = await ownerAddressOf(keys);
    return this.accountLocks.run(owner, async () => {
      await this.configureMissingAccounts(keys, owner);
      return owner;
    });
  }

  async fundTestAccount(
    keys: AccountKeyMaterial,
    assetCode: string,
    amount: bigint,
  ): Promise<LedgerSubmission> {
    const mintAuthoritySeed = fundingAuthority(this.environment, this.config.mintAuthoritySeed);
    assertConfidentialAmount(amount);
    const asset = this.asset(assetCode);
    const owner = await ownerAddressOf(keys);
    const token = await associatedTokenAddress(owner, asset.mint);
    return this.accountLocks.run(token, async () => {
      const signature = await this.execute(async () => {
        const tokenState = await this.readConfidentialToken(token, 'account');
        const context = await this.signingContext();
        return { kind: 'fund', context, keys, mintAuthoritySeed, token, tokenState, amount, ...asset };
      });
      // Funding applies the pending balance too, so a credit can race it as it can any apply.
      if (creditRaced(await this.readConfidentialToken(token, 'account'))) {
        await this.applyPending(keys, token, asset, false);
      }
      return { signature };
    });
  }

  async readForConfidentialTransfer(
    fromOwner: Address,
    toOwner: Address,
    assetCode: string,
  ): Promise<TransferReading> {
    const asset = this.asset(assetCode);
    const [source, destination] = await Promise.all([
      associatedTokenAddress(fromOwner, asset.mint),
      associatedTokenAddress(toOwner, asset.mint),
    ]);
    const accounts = { fromOwner, source, destination };
    return readTransfer(this.rpc, asset, accounts, this.transferContext.get(), this.requestSignal());
  }

  async transferConfidential(request: ConfidentialTransferRequest): Promise<LedgerSubmission> {
    assertConfidentialAmount(request.amount);
    const asset = this.asset(request.asset);
    const owner = await ownerAddressOf(request.from);
    const source = await associatedTokenAddress(owner, asset.mint);
    const destination = await associatedTokenAddress(request.toOwner, asset.mint);
    return this.accountLocks.run(source, async () => ({
      signature: await this.execute(async () => {
        const reading =
          TransferReading.usable(request.reading, source, destination) ??
          (await this.readForConfidentialTransfer(owner, request.toOwner, request.asset));
        return reading.job(asset, request);
      }, request.onSigned),
    }));
  }

  async applyPendingBalance(
    keys: AccountKeyMaterial,
    assetCode: string,
    { depositPublic = false }: { depositPublic?: boolean } = {},
  ): Promise<ApplyPendingResult> {
    const asset = this.asset(assetCode);
    const token = await associatedTokenAddress(await ownerAddressOf(keys), asset.mint);
    return this.accountLocks.run(token, async () => {
      const tokenState = await this.readConfidentialToken(token, 'account');
      const pending = confidentialExtensionOf(tokenState)?.pendingBalanceCreditCounter ?? 0n;
      if (pending === 0n && !creditRaced(tokenState) && !(depositPublic && tokenState.amount > 0n)) {
        return { signature: null };
      }
      return { signature: await this.applyPending(keys, token, asset, depositPublic) };
    });
  }

  /** WARNING: call under the account's lock (`accountLocks`). */
  private applyPending(keys: AccountKeyMaterial, token: Address, asset: LedgerAsset, depositPublic: boolean) {
    return applyUntilUnraced(token, async () => {
      const signature = await this.execute(async () => {
        const current = await this.readConfidentialToken(token, 'account');
        const depositAmount = depositPublic ? current.amount : 0n;
        const context = await this.signingContext();
        return { kind: 'apply-pending', context, keys, token, tokenState: current, depositAmount, ...asset };
      });
      return { signature, raced: creditRaced(await this.readConfidentialToken(token, 'account')) };
    });
  }

  async transferStandard({ committed = 0n, ...request }: StandardTransferRequest): Promise<LedgerSubmission> {
    assertStandardAmount(request.amount);
    const asset = this.asset(request.asset);
    const source = await associatedTokenAddress(await ownerAddressOf(request.from), asset.mint);
    const recipientToken = await associatedTokenAddress(request.toOwner, asset.mint);
    return this.accountLocks.run(source, async () => ({
      signature: await this.execute(async () => {
        const sourceState = await this.readConfidentialToken(source, 'source');
        // Funds already public (paid in, or an earlier attempt withdrew, then crashed) are used before
        // withdrawing more, except what signed payments still to land were promised.
        const alreadyPublic = usablePublicAmount(sourceState.amount, committed, request.amount);
        return {
          kind: 'withdraw-and-pay',
          context: await this.signingContext(),
          keys: request.from,
          mint: asset.mint,
          decimals: asset.decimals,
          source,
          sourceState,
          withdrawAmount: request.amount - alreadyPublic,
          recipientOwner: request.toOwner,
          recipientToken,
          amount: request.amount,
        };
      }, request.onSigned),
    }));
  }

  async ensurePublicBalance(
    keys: AccountKeyMaterial,
    assetCode: string,
    amount: bigint,
    committed = 0n,
  ): Promise<PublicBalanceResult> {
    assertStandardAmount(amount);
    const asset = this.asset(assetCode);
    const source = await associatedTokenAddress(await ownerAddressOf(keys), asset.mint);
    return this.accountLocks.run(source, async () => {
      const sourceState = await this.readConfidentialToken(source, 'source');
      const withdrawAmount = lackingPublicAmount(sourceState.amount, amount + committed);
      if (withdrawAmount === 0n) {
        return { withdrawn: 0n, signature: null };
      }
      const signature = await this.execute(async () => ({
        kind: 'withdraw',
        context: await this.signingContext(),
        keys,
        ...asset,
        source,
        sourceState,
        withdrawAmount,
      }));
      return { withdrawn: withdrawAmount, signature };
    });
  }

  async signExactPayment(request: ExactPaymentRequest): Promise<SignedExactPayment> {
    assertStandardAmount(request.amount);
    const { mint, decimals } = this.asset(request.asset);
    const { blockhash, lastValidBlockHeight } = await this.signingContext();
    return buildExactPayment({ ...request, mint, decimals, blockhash, lastValidBlockHeight });
  }

  async readAccount(owner: Address, assetCode: string): Promise<LedgerAccountView> {
    const asset = this.asset(assetCode);
    const tokenAccount = await associatedTokenAddress(owner, asset.mint);
    return readAccountView(this.rpc, { owner, asset: asset.code, tokenAccount }, this.requestSignal());
  }

  confirmSignature(signature: Signature): Promise<SignatureOutcome> {
    return signatureOutcome(this.rpc, signature, this.requestSignal());
  }

  async close(): Promise<void> {
    if (this.ownsPool) {
      await this.pool.close();
    }
  }

  private async configureMissingAccounts(keys: AccountKeyMaterial, owner: Address): Promise<void> {
    const missing = await missingMints(this.config.assets, keys, owner, (o, code) =>
      this.readAccount(o, code),
    );
    if (missing.length > 0) {
      await this.execute(async () => ({
        kind: 'configure-accounts',
        context: await this.signingContext(),
        keys,
        mints: missing,
      }));
    }
  }

  private async execute(
    prepare: () => Promise<BuildJob>,
    onSigned?: (signature: Signature) => Promise<void>,
  ): Promise<Signature> {
    await this.init();
    let lastValidBlockHeight = 0n;
    const plan = await this.pool.run(async () => {
      const job = await prepare();
      lastValidBlockHeight = job.context.lastValidBlockHeight;
      return job;
    });
    const primary = plan.transactions[plan.primaryIndex];
    if (onSigned && primary) {
      await onSigned(primary.signature);
    }
    return sendPlan(this.rpc, plan, lastValidBlockHeight, this.timeouts, {
      landsOnSend: this.config.landsOnSend === true,
      sendInOrder: this.config.sendInOrder,
    });
  }

  private async signingContext(): Promise<SigningContext> {
    await this.init();
    const rent = this.rent;
    if (rent === null) {
      throw new LedgerError('ledger_unavailable', 'the ledger is not initialised');
    }
    const { value } = await this.rpc
      .getLatestBlockhash({ commitment: COMMITMENT })
      .send({ abortSignal: this.requestSignal() });
    return {
      feePayerSeed: this.config.feePayerSeed,
      blockhash: value.blockhash,
      lastValidBlockHeight: value.lastValidBlockHeight,
      rent,
    };
  }

  private readConfidentialToken(token: Address, role: string): Promise<Token> {
    return readConfidentialToken(this.rpc, { address: token, role }, this.requestSignal());
  }

  private asset(code: string): LedgerAsset {
    const asset = this.config.assets.find((candidate) => candidate.code === code);
    if (asset === undefined) {
      throw new LedgerError('unknown_asset', `unknown asset ${code} on the ${this.environment} ledger`);
    }
    return asset;
  }

  private requestSignal(): AbortSignal {
    return AbortSignal.timeout(this.timeouts.requestMs);
  }
}
