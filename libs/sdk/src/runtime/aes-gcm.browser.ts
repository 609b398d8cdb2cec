import { gcm } from '@noble/ciphers/aes.js';

// The browser build's stand-in for libs/crypto/src/aes-gcm.ts (browsers have no node:crypto): the
// same AES-256-GCM, ciphertext ‖ tag, over @noble/ciphers.

export function aesGcmEncrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  return gcm(key, nonce, aad).encrypt(plaintext);
}

export function aesGcmDecrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  aad: Uint8Array,
  sealed: Uint8Array,
): Uint8Array {
  return gcm(key, nonce, aad).decrypt(sealed);
}
