import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('reports room per busy endpoint and holds back full ones', () => {
    const slots = new EndpointSlots(2);
    slots.acquire('https://slow.example');
    slots.acquire('https://slow.example');
    slots.acquire('https://fast.example');

    expect(slots.room()).toEqual({
      perEndpoint: 2,
      busy: [{ endpoint: 'https://fast.example', room: 1 }],
      full: ['https://slow.example'],
    });
  });

  it('frees a slot when an attempt ends, forgetting idle endpoints', () => {
    const slots = new EndpointSlots(1);
    slots.acquire('https://a.example');
    expect(slots.room().full).toEqual(['https://a.example']);

    slots.release('https://a.example');
    slots.release('https://a.example');

    expect(slots.count('https://a.example')).toBe(0);
    expect(slots.room()).toEqual({ perEndpoint: 1, busy: [], full: [] });
  });
});
