/**
 * The dashboard's Content Security Policy: scripts, styles and fetches from the gateway's own origin
 * only, no inline script or style, no eval. `'wasm-unsafe-eval'` is there for one reason: zk-sdk's
 * WebAssembly (balance decryption and decryption proofs) must be compiled in the page, and CSP
 * treats WebAssembly compilation as eval. Trusted Types are enforced with no policy at all: the
 * page builds its DOM with `textContent` and never assigns HTML strings.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  // The forms are handled in the page: a native submission (the API key in a URL) is refused.
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Every dashboard response carries these; the page and its files hold no secret and change per release. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  // Revalidated on every load (ETag), so a new release is picked up at once.
  'Cache-Control': 'no-cache',
};
