/**
 * A consumer group registered here gathers, while messages flow, what arrives within its linger into
 * one fetch: the broker is asked for more bytes than will come (`LINGER_MIN_BYTES`) and answers once
 * the linger has passed. After a fetch that brought nothing it answers at the first message again,
 * waiting as long as any consumer (`fetchWaitMs`), so at rest it polls no more often than the others
 * and the first message after a pause is not held back.
 *
 * kafkajs reads `minBytes` and `maxWaitTime` from its ConsumerGroup on every fetch
 * (`kafkajs/src/consumer/consumerGroup`, its own source, as for the idle-loop fix); this sets them
 * around each fetch of a registered group.
 */
const LINGER_MIN_BYTES = 1024 * 1024;

interface FetchedBatch {
  isEmpty(): boolean;
}

interface ConsumerGroupPrototype {
  groupId: string;
  minBytes: number;
  maxWaitTime: number;
  fetch: (this: ConsumerGroupPrototype, nodeId: number) => Promise<FetchedBatch[]>;
  /** Whether the group's last fetch brought messages. */
  __ctsFlowing?: boolean;
  /** What the group was configured with: its fetches when nothing flows. */
  __ctsDefaults?: { minBytes: number; maxWaitTime: number };
  __ctsFetchLinger?: boolean;
}

const lingerByGroup = new Map<string, number>();

function consumerGroupClass(): { prototype: ConsumerGroupPrototype } {
  // kafkajs has no types for its internals.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('kafkajs/src/consumer/consumerGroup') as { prototype: ConsumerGroupPrototype };
}

/** From now on the group `groupId` lingers `lingerMs` per fetch while messages flow. */
export function lingerWhileFlowing(groupId: string, lingerMs: number): void {
  lingerByGroup.set(groupId, lingerMs);
  const prototype = consumerGroupClass().prototype;
  if (prototype.__ctsFetchLinger) {
    return;
  }
  const fetch = prototype.fetch;
  prototype.fetch = async function fetchLingering(this: ConsumerGroupPrototype, nodeId: number) {
    const lingerMs = lingerByGroup.get(this.groupId);
    if (lingerMs === undefined) {
      return fetch.call(this, nodeId);
    }
    // Set from the group's state on every fetch, never saved and restored: a group fetches from
    // each broker at once, and every fetch reads these after its first await.
    const defaults = (this.__ctsDefaults ??= { minBytes: this.minBytes, maxWaitTime: this.maxWaitTime });
    const lingering = this.__ctsFlowing === true;
    this.minBytes = lingering ? LINGER_MIN_BYTES : defaults.minBytes;
    this.maxWaitTime = lingering ? lingerMs : defaults.maxWaitTime;
    const batches = await fetch.call(this, nodeId);
    this.__ctsFlowing = batches.some((batch) => !batch.isEmpty());
    return batches;
  };
  prototype.__ctsFetchLinger = true;
}
