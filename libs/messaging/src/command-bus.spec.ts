import { type CommandEnvelope, createEnvelope, defineCommand, ok } from '@cts/contracts';
import { z } from 'zod';
import { CommandBus } from './command-bus';
import { HOP_REPLY_MARGIN_MS, runUnderDeadline, withFreshDeadline } from './deadline/command-deadline';
import { InProcessBus } from './in-process/in-process-bus';
import { InProcessClient } from './in-process/in-process.transport';

const Ping = defineCommand('account.ping', z.object({ n: z.number() }), z.object({ n: z.number() }));
const context = { correlationId: 'req_1', environment: 'test' as const, accountId: null };
const TIMEOUT_MS = 10_000;

/** `answer`: reply at once (true), never (false), or after this many ms. */
function setup(answer: boolean | number = true, timeoutMs = TIMEOUT_MS) {
  const bus = new InProcessBus();
  const received: CommandEnvelope<{ n: number }>[] = [];
  bus.registerCommand(Ping.topic, async (data) => {
    const envelope = data as CommandEnvelope<{ n: number }>;
    received.push(envelope);
    if (answer === false) {
      return new Promise(() => undefined);
    }
    if (typeof answer === 'number') {
      await new Promise((resolve) => setTimeout(resolve, answer));
    }
    return createEnvelope('account.ping.reply', 1, ok(envelope.payload), context);
  });
  return { commands: new CommandBus(new InProcessClient(bus), timeoutMs), received };
}

describe('CommandBus deadlines', () => {
  it("puts the sender's timeout in the envelope of a first command", async () => {
    const { commands, received } = setup();
    const before = Date.now();
    expect(await commands.send(Ping, { n: 1 }, context)).toEqual(ok({ n: 1 }));
    expect(received[0]?.deadline_at).toBeGreaterThanOrEqual(before + TIMEOUT_MS);
    expect(received[0]?.deadline_at).toBeLessThanOrEqual(Date.now() + TIMEOUT_MS);
  });

  it('gives a command sent while handling another the rest of that deadline, less the reply margin', async () => {
    const { commands, received } = setup();
    const deadline = Date.now() + 5_000;
    await runUnderDeadline(deadline, () => commands.send(Ping, { n: 1 }, context));
    await commands.send(Ping, { n: 2 }, { ...context, deadlineAt: deadline });
    expect(received.map((e) => e.deadline_at)).toEqual([
      deadline - HOP_REPLY_MARGIN_MS,
      deadline - HOP_REPLY_MARGIN_MS,
    ]);
  });

  it('does not send a command whose inherited deadline has passed, and says why', async () => {
    const { commands, received } = setup();
    const result = await runUnderDeadline(Date.now() - 1, () => commands.send(Ping, { n: 1 }, context));
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'service_unavailable', reason: 'deadline_exceeded' },
    });
    expect(received).toHaveLength(0);
  });

  it('sends a compensation with a fresh deadline after the cause ran out of time', async () => {
    const { commands, received } = setup();
    const result = await runUnderDeadline(Date.now() - 1, () =>
      commands.send(Ping, { n: 1 }, withFreshDeadline(context)),
    );
    expect(result).toEqual(ok({ n: 1 }));
    expect(received[0]?.deadline_at).toBeGreaterThan(Date.now());
  });

  it('waits only for what is left of the inherited deadline, not a fresh timeout', async () => {
    const { commands } = setup(false);
    const started = Date.now();
    const result = await runUnderDeadline(started + HOP_REPLY_MARGIN_MS + 300, () =>
      commands.send(Ping, { n: 1 }, context),
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'service_unavailable', reason: 'deadline_exceeded' },
    });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
  });

  it('takes a reply that comes after the deadline when the context asks for it, the deadline unchanged', async () => {
    const { commands, received } = setup(300, 100);
    const before = Date.now();
    expect(await commands.send(Ping, { n: 1 }, { ...context, lateReplyMs: 1_000 })).toEqual(ok({ n: 1 }));
    expect(received[0]?.deadline_at).toBeLessThanOrEqual(before + 100 + 50);
  });

  it('gives up at the deadline when the context does not ask for a late reply', async () => {
    const { commands } = setup(300, 100);
    expect(await commands.send(Ping, { n: 1 }, context)).toMatchObject({
      ok: false,
      error: { code: 'service_unavailable', reason: 'deadline_exceeded' },
    });
  });
});
