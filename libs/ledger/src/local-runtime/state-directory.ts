import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from '../ledger.errors';
import { type LedgerEnvironment } from '../ledger.port';
import { type LocalLedgerGenesis } from './genesis';

/** One directory per environment: `test` and `live` never share state, keys or mints. */
export interface StateLayout {
  directory: string;
  genesis: string;
  state: string;
  journal: string;
  feePayerKey: string;
  mintAuthorityKey: string;
  lock: string;
}

export function stateLayout(stateDir: string, environment: LedgerEnvironment): StateLayout {
  const directory = join(stateDir, environment);
  return {
    directory,
    genesis: join(directory, 'genesis.json'),
    state: join(directory, 'ledger-state.json'),
    journal: join(directory, 'ledger-journal.jsonl'),
    feePayerKey: join(directory, 'fee-payer.key'),
    mintAuthorityKey: join(directory, 'mint-authority.key'),
    lock: join(directory, 'runtime.lock'),
  };
}

export function ensureDirectory(layout: StateLayout): void {
  mkdirSync(layout.directory, { recursive: true, mode: 0o700 });
}

/** A 32-byte ed25519 seed, generated on first use and kept owner-readable only. */
export function loadOrCreateSeed(path: string): Uint8Array {
  if (!existsSync(path)) {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readSeed(path);
}

export function readSeed(path: string): Uint8Array {
  const seed = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (seed.length !== 32) {
    throw new LedgerError('ledger_unavailable', `${path} does not hold a 32-byte seed`);
  }
  return new Uint8Array(seed);
}

export function readGenesis(path: string): LocalLedgerGenesis | null {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as LocalLedgerGenesis) : null;
}

export function writeGenesis(path: string, genesis: LocalLedgerGenesis): void {
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(genesis, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/**
 * One runtime per state directory: two would each overwrite the other's state file. A lock left by a
 * dead process is taken over.
 */
export function acquireLock(path: string): () => void {
  if (existsSync(path)) {
    const holder = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new LedgerError(
        'ledger_unavailable',
        `the local ledger state in ${path} is in use by process ${holder}`,
      );
    }
    rmSync(path, { force: true });
  }
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
  return () => rmSync(path, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
