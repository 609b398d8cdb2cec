import { EndpointSlots, PROMPT_CLAIM_AHEAD } from './endpoint-slots';

describe('EndpointSlots', () => {
  it('holds back endpoints at the limit only', () => {
    const slots = new EndpointSlots(2);
    slots.claimed('https://slow.example');
    slots.claimed('https://slow.example');
    slots.claimed('https://fast.example');

    expect(slots.full()).toEqual(['https://slow.example']);
    expect(slots.count('https://fast.example')).toBe(1);
  });

  const sendNow = async (slots: EndpointSlots, endpoint: string) => {
    const answer = await slots.startSending(endpoint);
    if (!answer) {
      throw new Error('given back');
    }
    return answer;
  };

  it('frees a slot when an attempt is answered, forgetting idle endpoints', async () => {
    const slots = new EndpointSlots(1);
    slots.claimed('https://a.example');
    expect(slots.full()).toEqual(['https://a.example']);

    (await sendNow(slots, 'https://a.example'))(false);

    expect(slots.count('https://a.example')).toBe(0);
    expect(slots.full()).toEqual([]);
  });

  it('claims ahead only for an endpoint whose last answer was prompt, and sends at most the limit at once', async () => {
    const slots = new EndpointSlots(2);
    const endpoint = 'https://prompt.example';
    slots.claimed(endpoint);
    slots.claimed(endpoint);
    expect(slots.full()).toEqual([endpoint]);
    (await sendNow(slots, endpoint))(true);
    (await sendNow(slots, endpoint))(true);
    for (let i = 0; i < 2 + PROMPT_CLAIM_AHEAD; i++) {
      slots.claimed(endpoint);
    }
    expect(slots.full()).toEqual([endpoint]);

    const sending: ((prompt: boolean) => void)[] = [];
    const sent = Array.from({ length: 4 }, () =>
      slots.startSending(endpoint).then((answer) => answer && sending.push(answer)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(sending).toHaveLength(2);
    sending[0]?.(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sending).toHaveLength(3);
    expect(slots.count(endpoint)).toBe(1 + PROMPT_CLAIM_AHEAD);
    sending.slice(1).forEach((answer) => answer(true));
    await Promise.all(sent);
    sending[3]?.(true);
  });

  it('gives back what was claimed ahead once an answer is slow, and claims ahead no more', async () => {
    const slots = new EndpointSlots(2);
    const endpoint = 'https://turns-slow.example';
    slots.claimed(endpoint);
    (await sendNow(slots, endpoint))(true);
    for (let i = 0; i < 6; i++) {
      slots.claimed(endpoint);
    }
    const outcomes = Array.from({ length: 6 }, () => slots.startSending(endpoint));
    const [first, second] = await Promise.all(outcomes.slice(0, 2));
    first?.(false);

    // The four waiting for a connection are given back unsent; the one in flight still counts.
    expect(await Promise.all(outcomes.slice(2))).toEqual([null, null, null, null]);
    expect(slots.count(endpoint)).toBe(1);
    expect(slots.full()).toEqual([]);
    expect(slots.planAfter(endpoint)).toEqual({ only: null, limit: 1 });
    second?.(true);
    expect(slots.count(endpoint)).toBe(0);
  });

  it('plans a prompt endpoint its whole room once what it has waiting runs low', async () => {
    const slots = new EndpointSlots(2);
    const endpoint = 'https://fast.example';
    expect(slots.planAfter(undefined)).toEqual({ only: null, limit: 2 });
    slots.claimed(endpoint);
    (await sendNow(slots, endpoint))(true);
    expect(slots.planAfter(endpoint)).toEqual({ only: endpoint, limit: 2 + PROMPT_CLAIM_AHEAD });

    for (let i = 0; i < 5; i++) {
      slots.claimed(endpoint);
    }
    await sendNow(slots, endpoint);
    await sendNow(slots, endpoint);
    // Three wait for a connection: stocked, no claim for it yet.
    expect(slots.planAfter(endpoint)).toBeNull();
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
