import { Writable } from 'node:stream';
import { createLogger } from './logger';

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
