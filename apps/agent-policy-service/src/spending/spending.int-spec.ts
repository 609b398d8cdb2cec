import {
  createEnvelope,
  EvaluateAgentSpend,
  ReleaseSpendReservation,
  UpdateSpendPolicy,
} from '@cts/contracts';
import { AgentPolicyHarness, context, outcome } from '../testing/agent-policy-harness';

const USDC = 1_000_000n;
const SOL = 1_000_000_000n;

describe('agent-policy-service spend evaluation on a real PostgreSQL', () => {
  const harness = new AgentPolicyHarness();
  const limits = { daily_limit_usdc: 100, per_transaction_limit_usdc: 100 };
  const release = (reservation_id: string) =>
    harness.bus.send(ReleaseSpendReservation, { reservation_id }, context);

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  it('allows, holds above the threshold, and replies with the agent, its owner and the approval window', async () => {
    const { agent, owner } = await harness.agentWith({
      daily_limit_usdc: 200,
      per_transaction_limit_usdc: 100,
      hitl_threshold_usdc: 50,
      approval_window_minutes: 30,
    });
    expect(await harness.evaluate(agent, 50n * USDC)).toEqual({
      ok: true,
      value: {
        decision: 'allow',
        agent: { account_id: agent.account_id, handle: agent.handle },
        owner: { account_id: owner.account_id, handle: owner.handle },
        approval_window_minutes: 30,
        policy_id: agent.spend_policy_id,
      },
    });
    expect(await harness.evaluate(agent, 50n * USDC + 1n)).toMatchObject({
      ok: true,
      value: { decision: 'hold', approval_window_minutes: 30 },
    });
  });

  it('denies with policy_violation and the reason, checking asset, recipient, hours, per transaction, daily', async () => {
    const { agent } = await harness.agentWith({
      daily_limit_usdc: 100,
      per_transaction_limit_usdc: 40,
      allowed_recipients: ['@recipient', '*.shop.io'],
      active_hours: '09:00-17:00',
      timezone: 'Europe/Paris',
    });
    expect(await harness.evaluate(agent, USDC, { asset: 'SOL' })).toMatchObject({
      ok: false,
      error: { code: 'policy_violation', reason: 'asset_not_allowed' },
    });
    expect(outcome(await harness.evaluate(agent, USDC, { to: 'shop.io' }))).toBe('recipient_not_allowed');
    expect(outcome(await harness.evaluate(agent, USDC, { to: 'pay.SHOP.io' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, USDC, { at: '2026-03-10T16:00:00.000Z' }))).toBe(
      'outside_active_hours',
    ); // 17:00 Paris
    expect(outcome(await harness.evaluate(agent, USDC, { at: '2026-03-10T08:00:00.000Z' }))).toBe('allow'); // 09:00 Paris
    expect(outcome(await harness.evaluate(agent, 40n * USDC + 1n))).toBe('per_transaction_limit_exceeded');
    expect(outcome(await harness.evaluate(agent, 40n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 40n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 18n * USDC + 1n))).toBe('daily_limit_exceeded');
    expect(outcome(await harness.evaluate(agent, 18n * USDC))).toBe('allow');
  });

  it('answers not_agent for an account that is not an agent, and refuses an amount sealed for another account', async () => {
    const { agent } = await harness.agentWith(limits);
    expect(await harness.evaluate({ account_id: 'acct_plain_person' }, USDC)).toEqual({
      ok: true,
      value: { decision: 'not_agent' },
    });
    expect(
      await harness.evaluate(agent, USDC, { sealed_amount: harness.seal('acct_someone_else', USDC) }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'sealed_amount' },
    });
  });

  it('lets exactly one of two concurrent evaluations through a daily limit they exceed together', async () => {
    for (let round = 0; round < 5; round++) {
      const { agent } = await harness.agentWith(limits);
      const results = await Promise.all([
        harness.evaluate(agent, 60n * USDC),
        harness.evaluate(agent, 60n * USDC),
      ]);
      expect(results.map(outcome).sort()).toEqual(['allow', 'daily_limit_exceeded']);
    }
  });

  it('lets exactly as many of many concurrent evaluations through as the daily limit holds', async () => {
    const { agent } = await harness.agentWith(limits);
    const results = await Promise.all(Array.from({ length: 12 }, () => harness.evaluate(agent, 30n * USDC)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).map(outcome)).toEqual(Array(9).fill('daily_limit_exceeded'));
  });

  it('reserves once per reservation id: evaluating it again replaces the reservation', async () => {
    const { agent } = await harness.agentWith(limits);
    expect(outcome(await harness.evaluate(agent, 60n * USDC, { reservation_id: 'tr_same' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 60n * USDC, { reservation_id: 'tr_same' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 30n * USDC, { reservation_id: 'tr_same' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 70n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 1n))).toBe('daily_limit_exceeded');
  });

  it('gives a redelivered evaluation its first reply and no second reservation', async () => {
    const { agent } = await harness.agentWith(limits);
    const envelope = createEnvelope(
      EvaluateAgentSpend.topic,
      1,
      EvaluateAgentSpend.request.parse({
        agent_account_id: agent.account_id,
        environment: 'test',
        reservation_id: 'tr_redelivered',
        to: '@recipient',
        asset: 'USDC',
        sealed_amount: harness.seal(agent.account_id, 100n * USDC),
        mode: 'attempt',
        at: '2026-03-10T12:00:00.000Z',
      }),
      context,
    );
    const first = (await harness.rawBus.request(EvaluateAgentSpend.topic, envelope)) as { payload: unknown };
    const second = (await harness.rawBus.request(EvaluateAgentSpend.topic, envelope)) as { payload: unknown };
    expect(second.payload).toEqual(first.payload);
    expect(first.payload).toMatchObject({ ok: true, value: { decision: 'allow' } });
  });

  it('refuses to move another agent’s reservation', async () => {
    const { agent: a } = await harness.agentWith(limits);
    const { agent: b } = await harness.agentWith(limits);
    expect(outcome(await harness.evaluate(a, USDC, { reservation_id: 'tr_owned_by_a' }))).toBe('allow');
    expect(await harness.evaluate(b, USDC, { reservation_id: 'tr_owned_by_a' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', param: 'reservation_id' },
    });
  });

  it('frees a released reservation once, so its amount can be spent again', async () => {
    const { agent } = await harness.agentWith(limits);
    expect(outcome(await harness.evaluate(agent, 80n * USDC, { reservation_id: 'tr_failed' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 30n * USDC))).toBe('daily_limit_exceeded');
    expect(await release('tr_failed')).toEqual({ ok: true, value: { released: true } });
    expect(await release('tr_failed')).toEqual({ ok: true, value: { released: false } });
    expect(await release('tr_never_existed')).toEqual({ ok: true, value: { released: false } });
    expect(outcome(await harness.evaluate(agent, 100n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 1n))).toBe('daily_limit_exceeded');
  });

  it('counts a held amount until it is released (rejected or expired)', async () => {
    const { agent } = await harness.agentWith({ ...limits, hitl_threshold_usdc: 50 });
    expect(outcome(await harness.evaluate(agent, 70n * USDC, { reservation_id: 'atx_held' }))).toBe('hold');
    expect(outcome(await harness.evaluate(agent, 31n * USDC))).toBe('daily_limit_exceeded');
    expect(await release('atx_held')).toEqual({ ok: true, value: { released: true } });
    expect(outcome(await harness.evaluate(agent, 31n * USDC))).toBe('allow');
  });

  it('re-checks an approval without the threshold and without counting its own reservation, and keeps it', async () => {
    const { agent, owner } = await harness.agentWith({ ...limits, hitl_threshold_usdc: 50 });
    const recheck = (amount: bigint) =>
      harness.evaluate(agent, amount, { reservation_id: 'atx_approve_me', mode: 'approval_recheck' });
    expect(outcome(await harness.evaluate(agent, 70n * USDC, { reservation_id: 'atx_approve_me' }))).toBe(
      'hold',
    );
    expect(outcome(await harness.evaluate(agent, 30n * USDC))).toBe('allow'); // 70 + 30 = the whole daily limit
    expect(outcome(await recheck(70n * USDC))).toBe('allow');
    expect(outcome(await recheck(70n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 1n))).toBe('daily_limit_exceeded');

    // A policy tightened since the hold applies to the approval (spec §3.3).
    const tightened = await harness.bus.send(
      UpdateSpendPolicy,
      {
        caller_account_id: owner.account_id,
        agent_account_id: agent.account_id,
        environment: 'test',
        patch: { daily_limit_usdc: 99, per_transaction_limit_usdc: 99 },
      },
      context,
    );
    expect(tightened.ok).toBe(true);
    expect(outcome(await recheck(70n * USDC))).toBe('daily_limit_exceeded');
    expect(outcome(await recheck(69n * USDC))).toBe('allow');
  });

  it('keeps the daily total per calendar day of the policy time zone', async () => {
    const { agent } = await harness.agentWith({ ...limits, timezone: 'America/New_York' });
    expect(outcome(await harness.evaluate(agent, 100n * USDC, { at: '2026-03-11T03:59:00.000Z' }))).toBe(
      'allow',
    ); // 23:59 on the 10th in New York
    expect(outcome(await harness.evaluate(agent, 1n, { at: '2026-03-10T12:00:00.000Z' }))).toBe(
      'daily_limit_exceeded',
    );
    expect(outcome(await harness.evaluate(agent, 100n * USDC, { at: '2026-03-11T04:00:00.000Z' }))).toBe(
      'allow',
    ); // 00:00 on the 11th
  });

  it('keeps totals per environment and per asset, in the asset’s own units', async () => {
    const { agent } = await harness.agentWith({ ...limits, assets: ['USDC', 'SOL'] });
    expect(outcome(await harness.evaluate(agent, 100n * USDC))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 1n))).toBe('daily_limit_exceeded');
    expect(outcome(await harness.evaluate(agent, 100n * USDC, { environment: 'live' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 100n * SOL, { asset: 'SOL' }))).toBe('allow');
    expect(outcome(await harness.evaluate(agent, 1n, { asset: 'SOL' }))).toBe('daily_limit_exceeded');
  });

  it('stores no amount in plaintext: every row of the agents schema is free of a distinctive amount', async () => {
    const amount = 4_321_987_654n; // 4321.987654 USDC
    const { agent, owner } = await harness.agentWith({
      daily_limit_usdc: 9000,
      per_transaction_limit_usdc: 5000,
      hitl_threshold_usdc: 10,
    });
    expect(outcome(await harness.evaluate(agent, amount, { reservation_id: 'atx_secret' }))).toBe('hold');
    expect(
      outcome(
        await harness.evaluate(agent, amount, { reservation_id: 'atx_secret', mode: 'approval_recheck' }),
      ),
    ).toBe('allow');
    expect(outcome(await harness.evaluate(agent, amount, { reservation_id: 'tr_secret' }))).toBe('hold');
    expect(outcome(await harness.evaluate(agent, amount, { reservation_id: 'tr_denied' }))).toBe(
      'daily_limit_exceeded',
    );
    await release('tr_secret');
    await harness.bus.send(
      UpdateSpendPolicy,
      {
        caller_account_id: owner.account_id,
        agent_account_id: agent.account_id,
        environment: 'test',
        patch: { assets: ['USDC', 'SOL'] },
      },
      context,
    );
    expect(outcome(await harness.evaluate(agent, amount, { asset: 'SOL' }))).toBe('allow'); // 4.321987654 SOL

    const tables = await harness.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'agents'`,
    );
    expect(tables.map((t) => t.table_name).sort()).toEqual([
      'agents',
      'inbox',
      'migrations',
      'outbox',
      'spend_daily_totals',
      'spend_policies',
      'spend_reservations',
    ]);
    let rows = 0;
    for (const { table_name } of tables) {
      const dump = await harness.query<{ row: string }>(
        `SELECT t::text AS row FROM agents."${table_name}" t`,
      );
      rows += dump.length;
      for (const { row } of dump) {
        for (const needle of ['4321987654', '4321.987654', '4321987654000', '4.321987654']) {
          expect(row).not.toContain(needle);
        }
      }
    }
    expect(rows).toBeGreaterThan(20);
    const [reservation] = await harness.query<{ sealed_amount: string }>(
      `SELECT sealed_amount FROM agents.spend_reservations WHERE id = 'atx_secret'`,
    );
    expect(reservation.sealed_amount).toMatch(/^s1\./);
  });
});
