import { z } from 'zod';

/** An account as named in an event: its id (for scoping) and its handle (for payloads). */
export const PartyRef = z.object({ account_id: z.string(), handle: z.string() });
export type PartyRef = z.infer<typeof PartyRef>;

/**
 * A party of a transaction (`address`: its account on the ledger of the transaction). `owner` is set when the party is an agent: events reach the owner's
 * webhooks too (spec §6.1 "any agent beneath it").
 */
export const TransactionParty = PartyRef.extend({ address: z.string(), owner: PartyRef.nullable() });
export type TransactionParty = z.infer<typeof TransactionParty>;

export const Timestamp = z.iso.datetime();
