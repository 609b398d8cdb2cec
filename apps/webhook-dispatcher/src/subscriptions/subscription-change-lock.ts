import { type EntityManager } from 'typeorm';

/** The advisory lock space (`pg_advisory_*(int, int)`'s first key) of subscription changes. */
const CHANGE_LOCK_SPACE = 1_464_117;

/**
 * A DELETE or PATCH of a subscription takes this lock, in its transaction, before its row update:
 * that update waits for the attempts in flight (their batches hold the row `FOR SHARE`), and while it
 * waits no claim takes the subscription's deliveries (`noChangePending`). Released at commit.
 */
export async function lockForChange(subscriptionId: string, manager: EntityManager): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(${CHANGE_LOCK_SPACE}, hashtext($1))`, [subscriptionId]);
}

/**
 * SQL true when no change of the subscription `idColumn` is pending: a shared try of the change lock,
 * released at once (CASE fixes the order: unlock only what was taken). A claim's own earlier locks do
 * not count, unlike a transaction-scoped shared lock, which a batch would keep holding.
 */
export function noChangePending(idColumn: string): string {
  return `CASE WHEN pg_try_advisory_lock_shared(${CHANGE_LOCK_SPACE}, hashtext(${idColumn}))
    THEN pg_advisory_unlock_shared(${CHANGE_LOCK_SPACE}, hashtext(${idColumn})) ELSE false END`;
}
