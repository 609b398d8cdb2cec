import { trustProxySetting } from './trust-proxy';

describe('trustProxySetting', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8,loopback', '10.0.0.0/8,loopback'],
  ])('reads %p as %p', (value, expected) => {
    expect(trustProxySetting(value)).toBe(expected);
  });
});
