/**
 * Serializes work per key inside this process (e.g. per source token account): a proof is bound to the
 * account's current balance ciphertext, so two concurrent debits from one account would fail on-chain.
 * Across replicas the caller still needs its own lock.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    }
  }
}
