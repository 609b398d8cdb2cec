import { EndpointSlots } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('holds back endpoints at the limit only', () => {
    const slots = new EndpointSlots(2);
    slots.claimed('https://slow.example');
    slots.claimed('https://slow.example');
    slots.claimed('https://fast.example');

    expect(slots.full()).toEqual(['https://slow.example']);
    expect(slots.count('https://fast.example')).toBe(1);
  });

  it('frees a slot when an attempt is answered, forgetting idle endpoints', async () => {
    const slots = new EndpointSlots(1);
    slots.claimed('https://a.example');
    expect(slots.full()).toEqual(['https://a.example']);

    const answered = await slots.startSending('https://a.example');
    answered(false);

    expect(slots.count('https://a.example')).toBe(0);
    expect(slots.full()).toEqual([]);
  });

  it('claims ahead only for an endpoint whose last answer was prompt, and sends at most the limit at once', async () => {
    const slots = new EndpointSlots(2);
    const endpoint = 'https://prompt.example';
    slots.claimed(endpoint);
    (await slots.startSending(endpoint))(true);
    for (let i = 0; i < 4; i++) {
      slots.claimed(endpoint);
    }
    expect(slots.full()).toEqual([endpoint]);

    const sending: ((prompt: boolean) => void)[] = [];
    const waiting = [0, 1, 2, 3].map(() =>
      slots.startSending(endpoint).then((answer) => sending.push(answer)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(sending).toHaveLength(2);

    // A slow answer: the endpoint loses its claims ahead once the ones held are answered.
    sending[0]?.(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sending).toHaveLength(3);
    expect(slots.count(endpoint)).toBe(3);
    expect(slots.hasRoom(endpoint)).toBe(false);
    sending.slice(1).forEach((answer) => answer(false));
    await Promise.all(waiting);
    sending[3]?.(false);
    expect(slots.count(endpoint)).toBe(0);
  });

  it('lets one claim take only as many as the least room left among endpoints held', () => {
    const slots = new EndpointSlots(4);
    expect(slots.commonRoom()).toBe(4);
    slots.claimed('https://a.example');
    expect(slots.commonRoom()).toBe(3);
    slots.claimed('https://b.example');
    slots.claimed('https://b.example');
    slots.claimed('https://b.example');
    expect(slots.commonRoom()).toBe(1);
    // A full endpoint is excluded from claims: it does not count.
    slots.claimed('https://b.example');
    expect(slots.commonRoom()).toBe(3);
  });
});
