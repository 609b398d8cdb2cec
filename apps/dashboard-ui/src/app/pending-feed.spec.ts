import { type CtsClient, type PendingApproval } from '@cts/sdk';
import { PendingFeed } from './pending-feed';

// The feed listens for the tab's visibility; a hidden tab also schedules no next poll.
const documentStub = { hidden: true, addEventListener: jest.fn(), removeEventListener: jest.fn() };

const clientAnswering = (...answers: (PendingApproval[] | Error)[]) =>
  ({
    pendingTransactions: jest.fn(() => {
      const answer = answers.shift();
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ pending: answer ?? [] });
    }),
  }) as unknown as CtsClient;

describe('PendingFeed', () => {
  beforeAll(() => {
    (globalThis as { document?: unknown }).document = documentStub;
  });
  afterAll(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  it('is loading until the first answer, then loaded', async () => {
    const feed = new PendingFeed(clientAnswering([]), () => {});
    expect(feed.status).toBe('loading');
    await feed.refresh();
    expect(feed.status).toBe('loaded');
    expect(feed.current).toEqual([]);
    feed.stop();
  });

  it('says the list failed, never that it is empty, when the first poll fails', async () => {
    const errors: unknown[] = [];
    const feed = new PendingFeed(clientAnswering(new Error('503')), (error) => errors.push(error));
    await feed.refresh();
    expect(feed.status).toBe('failed');
    expect(feed.current).toBeUndefined();
    expect(errors).toHaveLength(1);
    feed.stop();
  });

  it('keeps the last list but says failed when a later poll fails, and loaded once one succeeds', async () => {
    const feed = new PendingFeed(clientAnswering([], new Error('503'), []), () => {});
    await feed.refresh();
    await feed.refresh();
    expect(feed.status).toBe('failed');
    expect(feed.current).toEqual([]);
    await feed.refresh();
    expect(feed.status).toBe('loaded');
    feed.stop();
  });
});
