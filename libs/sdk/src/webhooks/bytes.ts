// Browser-safe helpers (no Buffer): the webhook verifier must bundle for the dashboard too.

const encoder = new TextEncoder();

export function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Standard base64 (padding optional); `undefined` for anything else. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    return undefined;
  }
  const padded = text.replace(/=+$/, '');
  try {
    return Uint8Array.from(atob(padded + '='.repeat((4 - (padded.length % 4)) % 4)), (char) =>
      char.charCodeAt(0),
    );
  } catch {
    return undefined;
  }
}

/**
 * Compares without an early exit, so the time taken does not reveal how many leading bytes of a
 * forged signature were right. Lengths are public (a MAC has a fixed size).
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) {
    difference |= a[i] ^ b[i];
  }
  return difference === 0;
}
