import { fixKafkajsIdleLoop, requestQueueClass } from './kafkajs-idle-loop';

interface TestQueue {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: { entry: object; expectResponse: boolean; sendRequest: () => void }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer | null; size: number }): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
}

const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

function newQueue(maxInFlightRequests: number | null = null): TestQueue {
  const RequestQueue = requestQueueClass() as unknown as new (options: object) => TestQueue;
  return new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: '127.0.0.1:9092',
    logger: quietLogger,
  });
}

let correlationId = 0;
function request(sent: number[]) {
  const id = ++correlationId;
  return {
    id,
    pushed: {
      entry: { correlationId: id, apiName: 'Fetch', apiKey: 1, apiVersion: 11, resolve: () => undefined },
      expectResponse: true,
      sendRequest: () => sent.push(id),
    },
  };
}

describe('the kafkajs idle-loop fix', () => {
  beforeAll(() => fixKafkajsIdleLoop());

  it('leaves a connection with nothing waiting without a timer (kafkajs 2.2.4 re-armed one every 1 ms)', () => {
    const queue = newQueue();
    const sent: number[] = [];
    const { id, pushed } = request(sent);
    queue.push(pushed);
    queue.fulfillRequest({ correlationId: id, payload: null, size: 0 });
    expect(sent).toEqual([id]);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('still sends a request held back by broker throttling once the throttle ends', async () => {
    const queue = newQueue();
    const sent: number[] = [];
    queue.maybeThrottle(50);
    const { id, pushed } = request(sent);
    queue.push(pushed);
    expect(sent).toEqual([]);
    expect(queue.pending).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sent).toEqual([id]);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('sends a request held back by the in-flight limit when the one ahead is answered', () => {
    const queue = newQueue(1);
    const sent: number[] = [];
    const first = request(sent);
    const second = request(sent);
    queue.push(first.pushed);
    queue.push(second.pushed);
    expect(sent).toEqual([first.id]);
    queue.fulfillRequest({ correlationId: first.id, payload: null, size: 0 });
    expect(sent).toEqual([first.id, second.id]);
    queue.destroy();
  });

  it('is applied once however often it is called', () => {
    const patched = requestQueueClass().prototype.scheduleCheckPendingRequests;
    fixKafkajsIdleLoop();
    expect(requestQueueClass().prototype.scheduleCheckPendingRequests).toBe(patched);
  });
});
