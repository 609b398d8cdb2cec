import { randomBytes } from 'node:crypto';
import { aesGcmDecrypt as nodeDecrypt, aesGcmEncrypt as nodeEncrypt } from '@cts/crypto';
import { aesGcmDecrypt as browserDecrypt, aesGcmEncrypt as browserEncrypt } from './aes-gcm.browser';

// The browser build seals and opens with @noble/ciphers, the server with node:crypto: the same bytes.
describe('AES-256-GCM: the browser stand-in and the node implementation', () => {
  const key = randomBytes(32);
  const nonce = randomBytes(12);
  const aad = new TextEncoder().encode('cts.seal.s1\0context');

  it.each([0, 1, 8, 81, 1000])(
    'produce the same ciphertext and tag, and open each other’s (%i bytes)',
    (size) => {
      const plaintext = randomBytes(size);
      const sealed = nodeEncrypt(key, nonce, aad, plaintext);
      expect(Buffer.from(browserEncrypt(key, nonce, aad, plaintext))).toEqual(Buffer.from(sealed));
      expect(Buffer.from(browserDecrypt(key, nonce, aad, sealed))).toEqual(plaintext);
      expect(Buffer.from(nodeDecrypt(key, nonce, aad, browserEncrypt(key, nonce, aad, plaintext)))).toEqual(
        plaintext,
      );
    },
  );

  it('both refuse a tampered ciphertext, another key or other associated data', () => {
    const sealed = nodeEncrypt(key, nonce, aad, randomBytes(40));
    const tampered = Uint8Array.from(sealed);
    tampered[3] = (tampered[3] ?? 0) ^ 1;
    const otherAad = new TextEncoder().encode('cts.seal.s1\0elsewhere');
    for (const open of [nodeDecrypt, browserDecrypt]) {
      expect(() => open(key, nonce, aad, tampered)).toThrow();
      expect(() => open(randomBytes(32), nonce, aad, sealed)).toThrow();
      expect(() => open(key, nonce, otherAad, sealed)).toThrow();
      expect(() => open(key, nonce, aad, sealed.subarray(0, 10))).toThrow();
    }
  });
});
