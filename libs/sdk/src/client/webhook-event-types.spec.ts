import { WEBHOOK_EVENT_TYPES as SERVICE_TYPES } from '@cts/contracts';
import { WEBHOOK_EVENT_TYPES } from './types/webhooks';

describe('WEBHOOK_EVENT_TYPES', () => {
  it('lists exactly the types the service accepts', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...SERVICE_TYPES].sort());
  });
});
