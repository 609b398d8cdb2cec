// Base64 through Buffer where there is one (Node: custody unseals keys several times per transfer,
// ≈ 10× faster than the byte-by-byte strings below) and atob/btoa otherwise, so the SDK runs
// unchanged in the browser dashboard.
const BASE64_BODY = /^[A-Za-z0-9+/_-]*$/;
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}

/** RFC 4648 §5 alphabet, no padding: safe in URLs, headers and file names without escaping. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes standard or URL-safe base64, padding optional. Returns undefined for anything else
 * (whitespace, stray characters, impossible lengths) rather than guessing.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const unpadded = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (unpadded !== text && text.length % 4 !== 0) {
    return undefined;
  }
  if (!BASE64_BODY.test(unpadded) || unpadded.length % 4 === 1) {
    return undefined;
  }
  if (NodeBuffer) {
    // Buffer accepts both alphabets and missing padding; the checks above refused everything else.
    // Copied out of Node's shared pool, which is then wiped: the bytes may be key material.
    const decoded = NodeBuffer.from(unpadded, 'base64');
    const bytes = new Uint8Array(decoded);
    decoded.fill(0);
    return bytes;
  }
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

export function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Throws on invalid UTF-8 instead of inserting replacement characters. */
export function utf8Decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  let diff = 0;
  for (let i = 0; i < a.length; i++) {
    diff |= a[i] ^ b[i];
  }
  return diff === 0;
}
