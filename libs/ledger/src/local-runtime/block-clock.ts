import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';

export const SLOT_MS = 400;
/** As on Solana: a blockhash stays usable for 150 blocks (about a minute). */
export const BLOCKHASH_VALIDITY_SLOTS = 150n;

export interface BlockView {
  slot: bigint;
  blockhash: string;
  lastValidBlockHeight: bigint;
}

/**
 * Slots and blockhashes of the local runtime. LiteSVM's own blockhash never moves unless told to and it
 * accepts only the latest one; a real cluster produces a block every ~400 ms and accepts any of the last
 * 150. We keep that contract here (LiteSVM's check is off): identical transactions built in different
 * blocks are different transactions, and a plan of 5 transactions signed with one blockhash still lands.
 * Block height equals the slot (no skipped slots). Blockhashes are random, so they never repeat after a
 * restart.
 */
export class BlockClock {
  private slot: bigint;
  private slotStartedAt: number;
  private readonly recent = new Map<string, bigint>();
  private latest: string;

  constructor(
    startSlot: bigint,
    private readonly now: () => number = Date.now,
  ) {
    this.slot = startSlot;
    this.slotStartedAt = now();
    this.latest = this.produce();
  }

  current(): BlockView {
    const elapsedSlots = Math.floor((this.now() - this.slotStartedAt) / SLOT_MS);
    if (elapsedSlots > 0) {
      this.slot += BigInt(elapsedSlots);
      this.slotStartedAt += elapsedSlots * SLOT_MS;
      this.latest = this.produce();
    }
    return {
      slot: this.slot,
      blockhash: this.latest,
      lastValidBlockHeight: this.slot + BLOCKHASH_VALIDITY_SLOTS,
    };
  }

  isValid(blockhash: string): boolean {
    const { slot } = this.current();
    const producedAt = this.recent.get(blockhash);
    return producedAt !== undefined && slot - producedAt <= BLOCKHASH_VALIDITY_SLOTS;
  }

  private produce(): string {
    const blockhash = getBase58Decoder().decode(randomBytes(32));
    this.recent.set(blockhash, this.slot);
    for (const [hash, producedAt] of this.recent) {
      if (this.slot - producedAt > BLOCKHASH_VALIDITY_SLOTS) {
        this.recent.delete(hash);
      }
    }
    return blockhash;
  }
}
