import { loadConfig } from '@cts/platform';
import { approvalSettingsFrom } from './approval.settings';

describe('approval settings (through AppConfig)', () => {
  it('sweeps every 5 s and leases follow-ups for twice the command timeout, at least 30 s, by default', () => {
    expect(approvalSettingsFrom(loadConfig({}))).toEqual({
      sweepIntervalMs: 5000,
      followUpLeaseMs: 30_000,
      batchSize: 100,
    });
    expect(approvalSettingsFrom(loadConfig({ COMMAND_TIMEOUT_MS: '20000' })).followUpLeaseMs).toBe(40_000);
  });

  it('takes both from the environment', () => {
    const settings = approvalSettingsFrom(
      loadConfig({ APPROVAL_SWEEP_INTERVAL_MS: '250', APPROVAL_FOLLOW_UP_LEASE_MS: '45000' }),
    );
    expect(settings).toMatchObject({ sweepIntervalMs: 250, followUpLeaseMs: 45_000 });
  });

  it('refuses a value that is not a positive integer at start', () => {
    expect(() => loadConfig({ APPROVAL_SWEEP_INTERVAL_MS: '0' })).toThrow(/APPROVAL_SWEEP_INTERVAL_MS/);
    expect(() => loadConfig({ APPROVAL_FOLLOW_UP_LEASE_MS: 'soon' })).toThrow(/APPROVAL_FOLLOW_UP_LEASE_MS/);
  });
});
