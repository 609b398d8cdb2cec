/**
 * kafkajs 2.2.4 (its last release) spins every connection that ever got a response in a 1 ms timer
 * loop: `RequestQueue.scheduleCheckPendingRequests` schedules a check even when no request waits,
 * with a negative delay (`throttledUntil` starts at -1), which Node runs after 1 ms, and the check
 * schedules the next (tulios/kafkajs#1556, fix proposed in #1667, never released). Each app holds
 * several connections, so at rest each burnt 2–3 % of a core in wake-ups alone.
 *
 * The check only matters while requests wait in the queue (throttled or over the in-flight limit);
 * `push` schedules it whenever it queues one. So with nothing pending there is nothing to schedule.
 * The class is the one kafkajs itself uses (`kafkajs/src/...` is its own source, no copy).
 */
interface RequestQueuePrototype {
  pending: unknown[];
  scheduleCheckPendingRequests: (this: RequestQueuePrototype) => void;
  __ctsIdleLoopFixed?: boolean;
}

type RequestQueueClass = { prototype: RequestQueuePrototype };

export function requestQueueClass(): RequestQueueClass {
  // kafkajs has no types for its internals.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('kafkajs/src/network/requestQueue') as RequestQueueClass;
}

/** Idempotent; applied when the messaging library loads, before any Kafka client connects. */
export function fixKafkajsIdleLoop(): void {
  const prototype = requestQueueClass().prototype;
  if (prototype.__ctsIdleLoopFixed) {
    return;
  }
  const schedule = prototype.scheduleCheckPendingRequests;
  prototype.scheduleCheckPendingRequests = function scheduleWhenPending(this: RequestQueuePrototype) {
    if (this.pending.length > 0) {
      schedule.call(this);
    }
  };
  prototype.__ctsIdleLoopFixed = true;
}
