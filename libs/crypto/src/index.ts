export { zk } from './zk-sdk';
export { CryptoError, type CryptoErrorCode } from './crypto-error';
export { decodeBase64, encodeBase64, encodeBase64Url, utf8Decode, utf8Encode } from './encoding';
export { U64_MAX, isU64 } from './u64';
export * from './key-material';
export * from './sealing';
export { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
export * from './amount';
export {
  ELGAMAL_CIPHERTEXT_BYTES,
  ELGAMAL_PUBKEY_BYTES,
  ELGAMAL_SECRET_BYTES,
  ciphertextEncrypts,
  deriveElGamalPubkey,
  generateElGamalSecret,
  subtractAmount,
} from './elgamal';
export * from './decryption-key';
export * from './decryption-proof';
export * from './decryption-proof-param';
export * from './memo';
