import { Injectable } from '@nestjs/common';
import { type CreateTransfer, type RequestOf, type ResolveParties, type ResponseOf } from '@cts/contracts';
import { isDeepStrictEqual } from 'node:util';
import { kycAllowsMoney } from './transfer.domain';
import { selfSendRefusal } from './transfer-rules.domain';

type Request = RequestOf<typeof CreateTransfer>;
type Resolved = ResponseOf<typeof ResolveParties>;

/** A transfer that started settling on what did not hold (other parties, or a retry): start over. */
export class StartOver extends Error {
  constructor() {
    super('the transfer started settling on parties or a first attempt that did not hold');
  }
}

/**
 * Whether a settlement that started early may write: true once the retry lookup found nothing and
 * account-service answered with the parties it started on.
 */
export type PartiesConfirmation = Promise<boolean>;

export const CONFIRMED: PartiesConfirmation = Promise.resolve(true);

/** Waits for the confirmation: nothing is written or answered on what turned out not to hold. */
export async function assertConfirmed(confirmation: PartiesConfirmation): Promise<void> {
  if (!(await confirmation)) {
    throw new StartOver();
  }
}

const MAX_KNOWN = 10_000;

/**
 * What each sender's last transfer to a `to` resolved to, kept only when a transfer with those
 * parties proceeds to settle without a refusal or an agent's policy: a person's verified account
 * paying another account. A transfer to the same `to` starts settling on them (lock, ledger read,
 * proofs) while account-service answers afresh, and writes nothing until the answers match
 * (docs/decisions.md, "Settling while the parties are confirmed").
 */
@Injectable()
export class KnownParties {
  private readonly known = new Map<string, Resolved>();

  likely(request: Request): Resolved | undefined {
    return this.known.get(keyOf(request));
  }

  /** Records the fresh answer and says whether it is the one a settlement may have started on. */
  confirm(request: Request, fresh: Resolved, started: Resolved | undefined): boolean {
    this.remember(request, fresh);
    return started !== undefined && isDeepStrictEqual(fresh, started);
  }

  remember(request: Request, parties: Resolved): void {
    const key = keyOf(request);
    this.known.delete(key);
    if (!settlesWithoutChecks(parties)) {
      return;
    }
    this.known.set(key, parties);
    if (this.known.size > MAX_KNOWN) {
      const oldest = this.known.keys().next();
      if (!oldest.done) {
        this.known.delete(oldest.value);
      }
    }
  }
}

const keyOf = (request: Request) => `${request.environment}\u0000${request.account_id}\u0000${request.to}`;

function settlesWithoutChecks({ sender, recipient }: Resolved): boolean {
  return (
    sender.type !== 'agent' &&
    kycAllowsMoney(sender.kyc_status) &&
    recipient.kind === 'account' &&
    selfSendRefusal(sender, recipient) === null
  );
}
