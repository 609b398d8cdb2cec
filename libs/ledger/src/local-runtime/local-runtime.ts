import { FailedTransactionMetadata, type LiteSVM } from 'litesvm';
import { type Address, type EncodedAccount, type Transaction, getBase58Decoder, lamports } from '@solana/kit';
import { type LedgerAsset, type LedgerEnvironment } from '../ledger.port';
import { type BlockClock, type BlockView } from './block-clock';
import { type LocalLedgerGenesis } from './genesis';
import {
  type JournalEntry,
  type LedgerStateFile,
  type LedgerStateStore,
  type PersistedAccount,
} from './state-file';
import { type TransactionErrorJson, transactionErrorJson } from './transaction-error-json';
import { parseWireTransaction } from './wire-transaction';

export interface ExecutionReport {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
}

export type SubmitOutcome =
  | { kind: 'landed'; signature: string }
  | { kind: 'rejected'; report: ExecutionReport }
  | { kind: 'invalid'; message: string };

export interface LocalOperatorKeys {
  feePayerSeed: Uint8Array;
  mintAuthoritySeed: Uint8Array;
}

interface RuntimeSetup {
  genesis: LocalLedgerGenesis;
  operatorKeys: LocalOperatorKeys;
  release: () => void;
}

interface SignatureRecord {
  slot: bigint;
  err: TransactionErrorJson | null;
}

const SIGNATURES_IN_MEMORY = 50_000;
const SIGNATURES_PERSISTED = 5_000;

/**
 * One environment's ledger: LiteSVM with real Token-2022 and the ZK ElGamal proof program, plus what a
 * cluster adds around it (block clock, signature statuses, durable state). Synchronous by design: every
 * call runs to completion on the event loop, so transactions apply in arrival order like a leader's.
 */
export class LocalLedgerRuntime {
  private readonly tracked = new Set<Address>();
  private readonly signatures = new Map<string, SignatureRecord>();
  private store: LedgerStateStore | null = null;
  private setup: RuntimeSetup | null = null;
  private closed = false;

  constructor(
    readonly environment: LedgerEnvironment,
    private readonly svm: LiteSVM,
    private readonly clock: BlockClock,
  ) {}

  /** Completes construction once genesis exists (genesis itself runs through submitTransaction). */
  attach(setup: RuntimeSetup): void {
    this.setup = setup;
  }

  get genesis(): LocalLedgerGenesis {
    return this.attached().genesis;
  }

  /** The fee payer and mint authority seeds a ledger adapter for this runtime needs. */
  get operatorKeys(): LocalOperatorKeys {
    return this.attached().operatorKeys;
  }

  assets(): LedgerAsset[] {
    return this.genesis.assets.map((asset) => ({ ...asset }));
  }

  block(): BlockView {
    return this.clock.current();
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.clock.isValid(blockhash);
  }

  minimumBalance(size: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(size);
  }

  account(address: Address): EncodedAccount | null {
    const account = this.svm.getAccount(address);
    return account.exists ? account : null;
  }

  signatureStatus(signature: string): SignatureRecord | null {
    return this.signatures.get(signature) ?? null;
  }

  submitTransaction(wire: Uint8Array, options: { skipPreflight: boolean }): SubmitOutcome {
    const parsed = parseWireTransaction(wire);
    if ('message' in parsed) {
      return { kind: 'invalid', message: parsed.message };
    }
    const { transaction, signature, blockhash, feePayer, writable } = parsed;
    const refusal = this.signatures.has(signature)
      ? 'AlreadyProcessed'
      : !this.clock.isValid(blockhash)
        ? 'BlockhashNotFound'
        : null;
    if (refusal !== null) {
      return { kind: 'rejected', report: { err: refusal, logs: [], unitsConsumed: 0n } };
    }
    // Preflight without a second execution: run it once for real and, when it fails, undo the only
    // trace a failed execution leaves (LiteSVM withdraws the fee from the fee payer; it commits no other
    // account and, with no transaction history, records nothing). Nothing is recorded either, so the
    // rejection is exactly what a simulation followed by no send would have been.
    const payerBefore =
      options.skipPreflight || feePayer === undefined ? null : this.svm.getAccount(feePayer);
    const result = this.execute(transaction, 'send');
    if (!options.skipPreflight && result.err !== null) {
      if (payerBefore?.exists === true) {
        this.svm.setAccount(payerBefore);
      }
      return { kind: 'rejected', report: result };
    }
    if (typeof result.err === 'string') {
      // Transaction-level errors (signature, fee payer, ...) stop it before execution: it never lands.
      return { kind: 'rejected', report: result };
    }
    // A transaction that fails during execution still lands: its fee is paid and its status recorded.
    this.record(signature, result.err, result.err === null ? writable : writable.slice(0, 1));
    return { kind: 'landed', signature };
  }

  simulateTransaction(
    wire: Uint8Array,
    options: { sigVerify: boolean },
  ): ExecutionReport | { message: string } {
    const parsed = parseWireTransaction(wire, { unsignedFeePayer: !options.sigVerify });
    if ('message' in parsed) {
      return parsed;
    }
    if (options.sigVerify) {
      return this.execute(parsed.transaction, 'simulate');
    }
    this.svm.withSigverify(false);
    try {
      return this.execute(parsed.transaction, 'simulate');
    } finally {
      this.svm.withSigverify(true);
    }
  }

  airdrop(recipient: Address, amount: bigint): string | null {
    const result = this.svm.airdrop(recipient, lamports(amount));
    if (result === null || result instanceof FailedTransactionMetadata) {
      return null;
    }
    const signature = getBase58Decoder().decode(result.signature());
    this.record(signature, null, [recipient]);
    return signature;
  }

  /** Called once at start, before any transaction: accounts written in an earlier life of this ledger. */
  restore(state: LedgerStateFile): void {
    for (const [address, account] of Object.entries(state.accounts) as [
      Address,
      LedgerStateFile['accounts'][string],
    ][]) {
      const data = new Uint8Array(Buffer.from(account.data, 'base64'));
      this.svm.setAccount({
        address,
        data,
        executable: account.executable,
        lamports: lamports(BigInt(account.lamports)),
        programAddress: account.owner as Address,
        space: BigInt(data.length),
      });
      this.tracked.add(address);
    }
    for (const entry of state.signatures) {
      this.signatures.set(entry.signature, { slot: BigInt(entry.slot), err: entry.err });
    }
  }

  /** From now on every landed transaction is on disk before its submission returns. */
  persistTo(store: LedgerStateStore): void {
    store.open(this.snapshot());
    this.store = store;
  }

  snapshot(): LedgerStateFile {
    const accounts: LedgerStateFile['accounts'] = {};
    for (const address of this.tracked) {
      const account = this.persisted(address);
      if (account === null) {
        this.tracked.delete(address);
        continue;
      }
      accounts[address] = account;
    }
    const signatures = [...this.signatures].slice(-SIGNATURES_PERSISTED).map(([signature, record]) => ({
      signature,
      slot: record.slot.toString(),
      err: record.err,
    }));
    return {
      version: 1,
      environment: this.environment,
      slot: this.block().slot.toString(),
      accounts,
      signatures,
    };
  }

  /** Folds the journal into the snapshot and releases the state directory. */
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.store?.close(this.snapshot());
      this.setup?.release();
    }
    return Promise.resolve();
  }

  private attached(): RuntimeSetup {
    if (this.setup === null) {
      throw new Error('the local ledger runtime is not initialised');
    }
    return this.setup;
  }

  private record(signature: string, err: TransactionErrorJson | null, written: Address[]): void {
    const { slot } = this.clock.current();
    this.svm.warpToSlot(slot);
    this.signatures.set(signature, { slot, err });
    if (this.signatures.size > SIGNATURES_IN_MEMORY) {
      const oldest = this.signatures.keys().next();
      if (oldest.done !== true) {
        this.signatures.delete(oldest.value);
      }
    }
    const entry: JournalEntry = { signature, slot: slot.toString(), err, accounts: {} };
    for (const address of written) {
      this.tracked.add(address);
      entry.accounts[address] = this.persisted(address);
    }
    this.store?.append(entry, () => this.snapshot());
  }

  private persisted(address: Address): PersistedAccount | null {
    const account = this.account(address);
    return account === null
      ? null
      : {
          lamports: account.lamports.toString(),
          owner: account.programAddress,
          executable: account.executable,
          data: Buffer.from(account.data).toString('base64'),
        };
  }

  private execute(transaction: Transaction, mode: 'simulate' | 'send'): ExecutionReport {
    let result;
    try {
      result =
        mode === 'send' ? this.svm.sendTransaction(transaction) : this.svm.simulateTransaction(transaction);
    } catch {
      // LiteSVM's wrapper throws (instead of failing the transaction) when a signature is missing.
      return { err: 'SignatureFailure', logs: [], unitsConsumed: 0n };
    }
    if (result instanceof FailedTransactionMetadata) {
      const meta = result.meta();
      return {
        err: transactionErrorJson(result.err()),
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
      };
    }
    const meta = 'meta' in result ? result.meta() : result;
    return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() };
  }
}
