import { verifyWebhookSignature } from '@cts/sdk';
import { eventually } from '@cts/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from './http';
import { type StackUnderTest } from './foundation.behaviour';
import { account, fund } from './transfers.behaviour';

interface Forwarded {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A plain local HTTP receiver, as a developer's laptop would run. */
async function localReceiver(): Promise<{ server: Server; url: string; received: Forwarded[] }> {
  const received: Forwarded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

function startListen(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [join(__dirname, '../../apps/cli/bin/cts.js'), 'listen', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) {
    return child.exitCode;
  }
  const exit = once(child, 'exit');
  child.kill('SIGINT');
  return ((await exit) as [number | null])[0];
}

/** `cts listen` end to end: the real CLI process, the events API, a local receiver verifying with the SDK. */
export function listenBehaviour(stack: () => StackUnderTest): void {
  it('forwards the account’s events to a local URL as signed deliveries, and resumes where it stopped', async () => {
    const [alice, bob] = [await account(stack()), await account(stack())];
    await fund(stack(), alice, '10');
    const receiver = await localReceiver();
    const stateDir = mkdtempSync(join(tmpdir(), 'cts-listen-'));
    const args = [
      '--url',
      stack().baseUrl,
      '--api-key',
      alice.token,
      '--forward-to',
      receiver.url,
      '--events',
      'transfer.confirmed',
      '--state',
      join(stateDir, 'state.json'),
      '--interval',
      '300',
    ];
    const transfer = async (amount: string) => {
      const sent = await http(stack().baseUrl, 'POST', '/v1/transfers', {
        token: alice.token,
        body: { to: bob.account.handle, amount },
      });
      expect(sent.status).toBe(200);
      return (sent.body as { transfer_id: string }).transfer_id;
    };
    try {
      let listen = startListen(args);
      await eventually(() => expect(listen.output()).toMatch(/signing secret is whsec_/), 30_000, 100);
      const secret = /signing secret is (whsec_\S+)/.exec(listen.output())?.[1] ?? '';

      // Six decimals: no timestamp or id in the body can contain it by chance.
      const first = await transfer('1.528461');
      await eventually(() => expect(receiver.received).toHaveLength(1), 60_000, 200);
      const [delivery] = receiver.received;
      const payload = JSON.parse(delivery?.body ?? '{}') as Record<string, unknown>;
      expect(payload).toMatchObject({
        event: 'transfer.confirmed',
        transfer_id: first,
        account: alice.account.handle,
      });
      expect(delivery?.body).not.toContain('1.528461');
      expect(delivery?.body).not.toContain('1528461');
      expect(verifyWebhookSignature(secret, delivery?.body ?? '', delivery?.headers ?? {})).toBe(true);
      expect(delivery?.headers['webhook-id']).toBe(payload.event_id);
      // The body is exactly the event the events API returns: a transfer's event carries the
      // transfer's created_at, as its webhook deliveries do.
      const event = await http(stack().baseUrl, 'GET', `/v1/events/${String(payload.event_id)}`, {
        token: alice.token,
      });
      expect(payload).toEqual(event.body);
      expect(JSON.stringify(event.body)).toBe(delivery?.body);

      expect(await stop(listen.child)).toBe(0);
      const whileStopped = await transfer('0.5');
      // Let the event be recorded before listening again.
      await eventually(
        async () => {
          const listed = await http(stack().baseUrl, 'GET', '/v1/events?type=transfer.confirmed&limit=1', {
            token: alice.token,
          });
          expect((listed.body as { events: { transfer_id?: string }[] }).events[0]?.transfer_id).toBe(
            whileStopped,
          );
        },
        60_000,
        200,
      );

      listen = startListen(args);
      await eventually(() => expect(receiver.received).toHaveLength(2), 60_000, 200);
      expect(listen.output()).toContain(`signing secret is ${secret}`);
      const resumed = JSON.parse(receiver.received[1]?.body ?? '{}') as Record<string, unknown>;
      expect(resumed).toMatchObject({ event: 'transfer.confirmed', transfer_id: whileStopped });
      expect(
        verifyWebhookSignature(secret, receiver.received[1]?.body ?? '', receiver.received[1]?.headers ?? {}),
      ).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received).toHaveLength(2);
      expect(await stop(listen.child)).toBe(0);
    } finally {
      receiver.server.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 180_000);
}
