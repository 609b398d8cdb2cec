import fc from 'fast-check';
import { bytesEqual, decodeBase64, encodeBase64, encodeBase64Url, utf8Decode } from './encoding';

describe('base64 encoding', () => {
  it('round-trips any bytes through standard and URL-safe base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const standard = decodeBase64(encodeBase64(bytes));
        const urlSafe = decodeBase64(encodeBase64Url(bytes));
        return (
          standard !== undefined &&
          urlSafe !== undefined &&
          bytesEqual(standard, bytes) &&
          bytesEqual(urlSafe, bytes)
        );
      }),
    );
  });

  it('matches Node Buffer output so other clients interoperate', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        return (
          encodeBase64(bytes) === Buffer.from(bytes).toString('base64') &&
          encodeBase64Url(bytes) === Buffer.from(bytes).toString('base64url')
        );
      }),
    );
  });

  it('accepts missing padding', () => {
    expect(decodeBase64('AQI')).toEqual(Uint8Array.of(1, 2));
    expect(decodeBase64('AQI=')).toEqual(Uint8Array.of(1, 2));
  });

  it.each(['A', 'AQI=x', 'AQ I=', ' AQI=', 'AQ==A', 'AQ===', 'AQ=', '@@@@', 'AQ%='])(
    'rejects malformed input %p without guessing',
    (text) => {
      expect(decodeBase64(text)).toBeUndefined();
    },
  );
});

describe('base64 encoding without Buffer (the browser build)', () => {
  type Encoding = typeof import('./encoding');
  const loadedWithoutBuffer = (): Encoding => {
    const saved = globalThis.Buffer;
    let module: Encoding | undefined;
    try {
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      jest.isolateModules(() => {
        module = jest.requireActual<Encoding>('./encoding');
      });
    } finally {
      globalThis.Buffer = saved;
    }
    if (!module) throw new Error('not loaded');
    return module;
  };
  const browser = loadedWithoutBuffer();

  it('gives what the Node path gives, for any bytes and both alphabets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const standard = browser.encodeBase64(bytes);
        const urlSafe = browser.encodeBase64Url(bytes);
        const decoded = browser.decodeBase64(urlSafe);
        return (
          standard === encodeBase64(bytes) &&
          urlSafe === encodeBase64Url(bytes) &&
          decoded !== undefined &&
          bytesEqual(decoded, bytes) &&
          bytesEqual(browser.decodeBase64(standard) ?? Uint8Array.of(), bytes)
        );
      }),
    );
  });

  it.each(['A', 'AQI=x', 'AQ I=', 'AQ===', '@@@@'])('rejects malformed input %p too', (text) => {
    expect(browser.decodeBase64(text)).toBeUndefined();
  });
});

describe('utf8Decode', () => {
  it('refuses invalid UTF-8 instead of substituting characters', () => {
    expect(() => utf8Decode(Uint8Array.of(0xff, 0xfe))).toThrow();
  });
});

describe('bytesEqual', () => {
  it('compares content and length', () => {
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false);
  });
});
