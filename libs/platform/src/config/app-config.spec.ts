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
