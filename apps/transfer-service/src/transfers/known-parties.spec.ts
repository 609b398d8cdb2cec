import { type AccountParty, type CreateTransfer, type RequestOf } from '@cts/contracts';
import { assertConfirmed, KnownParties, StartOver } from './known-parties';
import { alice, bob } from '../testing/parties';

const request = (to: string, environment: 'test' | 'live' = 'test') =>
  ({ account_id: alice.account_id, to, environment }) as RequestOf<typeof CreateTransfer>;
const parties = (sender: AccountParty = alice, recipient: AccountParty = bob) => ({
  sender,
  recipient: { ...recipient, kind: 'account' as const },
});

describe('KnownParties: what a transfer may start settling on before account-service answers', () => {
  it('offers the parties the sender last resolved for the same `to` and environment, and no others', () => {
    const known = new KnownParties();
    known.remember(request('@bob'), parties());

    expect(known.likely(request('@bob'))).toEqual(parties());
    expect(known.likely(request('@carol'))).toBeUndefined();
    expect(known.likely(request('@bob', 'live'))).toBeUndefined();
  });

  it('keeps only parties that settle without a refusal or a policy: no agent, no KYC gap, no outside address, no self-send', () => {
    const known = new KnownParties();
    const cases = [
      parties({ ...alice, type: 'agent' }),
      parties({ ...alice, kyc_status: 'pending' }),
      { sender: alice, recipient: { kind: 'external' as const, address: bob.address } },
      parties(alice, alice),
    ];
    for (const resolved of cases) {
      known.remember(request('@bob'), resolved);
      expect(known.likely(request('@bob'))).toBeUndefined();
    }
  });

  it('forgets the parties when a fresh answer no longer settles without checks (KYC revoked)', () => {
    const known = new KnownParties();
    known.remember(request('@bob'), parties());

    expect(known.confirm(request('@bob'), parties({ ...alice, kyc_status: 'unverified' }), parties())).toBe(
      false,
    );
    expect(known.likely(request('@bob'))).toBeUndefined();
  });

  it('confirms only an answer equal in every field to the parties the settlement started on', () => {
    const known = new KnownParties();
    expect(known.confirm(request('@bob'), parties(), parties())).toBe(true);
    expect(known.confirm(request('@bob'), parties(), undefined)).toBe(false);
    expect(
      known.confirm(
        request('@bob'),
        parties(alice, { ...bob, address: 'Other1111111111111111111111111111111111111' }),
        parties(),
      ),
    ).toBe(false);
  });

  it('holds at most 10,000 entries, dropping the least recently resolved', () => {
    const known = new KnownParties();
    for (let i = 0; i <= 10_000; i++) {
      known.remember(request(`@r${i}`), parties());
    }
    expect(known.likely(request('@r0'))).toBeUndefined();
    expect(known.likely(request('@r1'))).toBeDefined();
    expect(known.likely(request('@r10000'))).toBeDefined();
  });

  it('lets a settlement go on once confirmed and makes it start over otherwise', async () => {
    await expect(assertConfirmed(Promise.resolve(true))).resolves.toBeUndefined();
    await expect(assertConfirmed(Promise.resolve(false))).rejects.toBeInstanceOf(StartOver);
  });
});
