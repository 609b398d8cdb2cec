import { type SerializedLedgerError } from '../ledger.errors';
import { type BuildJob, type SignedTransactionPlan } from '../transactions/build-job';

export interface JobMessage {
  id: number;
  job: BuildJob;
}

/** A worker's first message: its modules are loaded and it takes jobs. */
export interface ReadyMessage {
  ready: true;
}

export type ResultMessage =
  | { id: number; ok: true; result: SignedTransactionPlan }
  | { id: number; ok: false; error: SerializedLedgerError };
