import { type Runtime } from '@cts/runtime';
import { SecretBox } from './secret-box';

const box = () =>
  new SecretBox({ secrets: { dataSealingKey: Buffer.alloc(32, 2).toString('base64') } } as Runtime);

describe('SecretBox', () => {
  it('opens a sealed secret for its subscription, again and again', () => {
    const secrets = box();
    const sealed = secrets.seal('wh_1', 'whsec_one');
    expect(secrets.unseal('wh_1', sealed)).toBe('whsec_one');
    expect(secrets.unseal('wh_1', sealed)).toBe('whsec_one');
  });

  it('does not open a sealed secret copied to another subscription, even once opened for its own', () => {
    const secrets = box();
    const sealed = secrets.seal('wh_1', 'whsec_one');
    expect(secrets.unseal('wh_1', sealed)).toBe('whsec_one');
    expect(() => secrets.unseal('wh_2', sealed)).toThrow(/does not open/);
  });

  it('does not open a tampered sealed secret, even once the original was opened', () => {
    const secrets = box();
    const sealed = secrets.seal('wh_1', 'whsec_one');
    secrets.unseal('wh_1', sealed);
    // A character inside the payload (the last one may carry only padding bits).
    const at = sealed.indexOf('.') + 10;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(() => secrets.unseal('wh_1', tampered)).toThrow(/does not open/);
  });

  it('keeps opening secrets correctly beyond what it holds in memory', () => {
    const secrets = box();
    const sealed = Array.from({ length: 1_005 }, (_, i) => secrets.seal(`wh_${i}`, `whsec_${i}`));
    sealed.forEach((value, i) => expect(secrets.unseal(`wh_${i}`, value)).toBe(`whsec_${i}`));
    expect(secrets.unseal('wh_0', sealed[0])).toBe('whsec_0');
  });
});
