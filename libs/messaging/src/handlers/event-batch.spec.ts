import { createEnvelope, defineEvent, type Envelope } from '@cts/contracts';
import { z } from 'zod';
import { type DeadLetters } from './dead-letters';
import { eventBatchDispatcher } from './event-batch';

const WidgetShippedV1 = defineEvent('widgets.events', 'widget.shipped', z.object({ widget_id: z.string() }));
const context = { correlationId: 'corr-1', environment: 'test' as const, accountId: 'acct_1' };

describe('eventBatchDispatcher', () => {
  it('hands a handler the version of the event it reads and skips the others, dead-lettering none', async () => {
    const handled: Envelope[][] = [];
    const send = jest.fn(() => Promise.resolve());
    const dispatch = eventBatchDispatcher(
      'widgets.events',
      [{ contracts: [WidgetShippedV1], method: (envelopes) => Promise.resolve(handled.push(envelopes)) }],
      'shipping-service',
      { send } as unknown as DeadLetters,
    );
    const v1 = createEnvelope('widget.shipped', 1, { widget_id: 'w1' }, context);
    // Version 2, published beside version 1 while consumers move over: another payload shape.
    const v2 = createEnvelope('widget.shipped', 2, { widget: { id: 'w1' } }, context);

    await dispatch([v1, v2]);

    expect(handled).toEqual([[expect.objectContaining({ id: v1.id, version: 1 })]]);
    expect(send).not.toHaveBeenCalled();
  });
});
