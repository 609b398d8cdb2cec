import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('holds back endpoints at the limit only', () => {
    const slots = new EndpointSlots(2);
    slots.acquire('https://slow.example');
    slots.acquire('https://slow.example');
    slots.acquire('https://fast.example');

    expect(slots.full()).toEqual(['https://slow.example']);
    expect(slots.count('https://fast.example')).toBe(1);
  });

  it('frees a slot when an attempt ends, forgetting idle endpoints', () => {
    const slots = new EndpointSlots(1);
    slots.acquire('https://a.example');
    expect(slots.full()).toEqual(['https://a.example']);

    slots.release('https://a.example');
    slots.release('https://a.example');

    expect(slots.count('https://a.example')).toBe(0);
    expect(slots.full()).toEqual([]);
  });
});
