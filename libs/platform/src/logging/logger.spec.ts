import { Writable } from 'node:stream';
import { createLogger, PinoNestLogger } from './logger';
import { inServiceScope } from './service-scope';

function captured() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

describe('logger redaction', () => {
  it('never writes amounts, memos, secrets or credentials, at any depth', () => {
    const { lines, stream } = captured();
    const logger = createLogger('test', 'debug', stream);
    logger.info(
      {
        amount: '1234.567891',
        memo: 'rent',
        authorization: 'Bearer svc_test_abc',
        request: {
          body: { amount: '98.76', secret: 'whsec_xyz' },
          headers: { authorization: 'Bearer svc_live_def' },
        },
        deep: { a: { b: { token: 'adm_123', password: 'hunter2' } } },
        transfer_id: 'tr_1',
      },
      'handled',
    );
    const output = lines.join('');
    for (const secret of [
      '1234.567891',
      'rent',
      'svc_test_abc',
      '98.76',
      'whsec_xyz',
      'svc_live_def',
      'adm_123',
      'hunter2',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('tr_1');
    expect(output).toContain('[redacted]');
  });
});

describe('PinoNestLogger in the one-process mode', () => {
  it('writes under the service whose work is running, timers it started included, else under its own', async () => {
    const gateway = captured();
    const dispatcher = captured();
    const nest = new PinoNestLogger(createLogger('gateway', 'info', gateway.stream));
    const dispatcherLogger = createLogger('webhook-dispatcher', 'info', dispatcher.stream);

    await inServiceScope(dispatcherLogger, async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
      nest.log('attempt made', 'DeliveryAttempter');
    });
    nest.log('request handled', 'RequestLogging');

    expect(dispatcher.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        service: 'webhook-dispatcher',
        context: 'DeliveryAttempter',
        msg: 'attempt made',
      }),
    ]);
    expect(gateway.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ service: 'gateway', context: 'RequestLogging', msg: 'request handled' }),
    ]);
  });
});
