import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it("chooses transfer-service's proof engine from CTS_PROOF_ENGINE, auto by default", () => {
    expect(loadConfig({}).CTS_PROOF_ENGINE).toBe('auto');
    expect(loadConfig({ CTS_PROOF_ENGINE: 'wasm' }).CTS_PROOF_ENGINE).toBe('wasm');
  });

  it('stops at start on an unknown proof engine, naming the setting', () => {
    expect(() => loadConfig({ CTS_PROOF_ENGINE: 'gpu' })).toThrow(/CTS_PROOF_ENGINE/);
  });
});

describe('loadConfig: broker security', () => {
  const credentials = { KAFKA_SASL_USERNAME: 'cts', KAFKA_SASL_PASSWORD: 'pw-never-shown' };

  it('reads no SASL and no TLS by default', () => {
    const config = loadConfig({});
    expect(config.KAFKA_SASL_MECHANISM).toBeUndefined();
    expect(config.KAFKA_SSL).toBe(false);
  });

  it('accepts plain, scram-sha-256 and scram-sha-512 in any case, with both credentials', () => {
    for (const mechanism of ['plain', 'SCRAM-SHA-256', 'scram-sha-512']) {
      expect(loadConfig({ KAFKA_SASL_MECHANISM: mechanism, ...credentials }).KAFKA_SASL_MECHANISM).toBe(
        mechanism.toLowerCase(),
      );
    }
    expect(loadConfig({ KAFKA_SSL: 'true' }).KAFKA_SSL).toBe(true);
  });

  it('stops at start on an unknown mechanism, naming the setting', () => {
    expect(() => loadConfig({ KAFKA_SASL_MECHANISM: 'gssapi', ...credentials })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
  });

  it('wants the username and the password together', () => {
    expect(() => loadConfig({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'cts' })).toThrow(
      /KAFKA_SASL_PASSWORD: KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are set together/,
    );
    expect(() =>
      loadConfig({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'pw-never-shown' }),
    ).toThrow(/KAFKA_SASL_USERNAME/);
  });

  it('wants a mechanism with credentials, and credentials with a mechanism', () => {
    expect(() => loadConfig(credentials)).toThrow(
      /KAFKA_SASL_MECHANISM: broker credentials need a mechanism/,
    );
    expect(() => loadConfig({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(/KAFKA_SASL_MECHANISM/);
  });

  it('never shows the password in a configuration error', () => {
    let message = '';
    try {
      loadConfig({ KAFKA_SASL_MECHANISM: 'kerberos', ...credentials, KAFKA_SSL: 'maybe' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/KAFKA_SSL/);
    expect(message).not.toContain('pw-never-shown');
  });

  it('rejects a KAFKA_SSL that is not a boolean', () => {
    expect(() => loadConfig({ KAFKA_SSL: 'yes' })).toThrow(/KAFKA_SSL/);
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it.each(['true', 'false', '1', 'loopback', '10.0.0.0/8, loopback', '192.168.1.7', 'fd00::/8,uniquelocal'])(
    'takes %p',
    (value) => {
      expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value.trim());
    },
  );

  it.each(['yes', '10.0.0.0/8/1', 'proxy.internal', '10.0.0.0/x'])(
    'stops at start on %p, naming the setting',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});

describe('loadConfig: INTERNAL_TOKEN', () => {
  it('is unset by default: the internal paths stay open', () => {
    expect(loadConfig({}).INTERNAL_TOKEN).toBeUndefined();
  });

  it('takes a token of 32 characters or more', () => {
    const token = 'x'.repeat(32);
    expect(loadConfig({ INTERNAL_TOKEN: token }).INTERNAL_TOKEN).toBe(token);
  });

  it('stops at start on a shorter one, naming the setting and never the value', () => {
    const short = 'short-internal-token';
    expect(() => loadConfig({ INTERNAL_TOKEN: short })).toThrow(/INTERNAL_TOKEN/);
    expect(() => loadConfig({ INTERNAL_TOKEN: short })).not.toThrow(new RegExp(short));
  });
});
