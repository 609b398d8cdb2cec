import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  /** PEM of the test CA: what the dispatcher is told to trust (as NODE_EXTRA_CA_CERTS would). */
  ca: string;
  key: string;
  cert: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * A throwaway CA and a server certificate it signed, made with the `openssl` CLI. The server
 * certificate names 127.0.0.1, localhost and the given DNS names.
 */
export function generateTestCertificates(dnsNames: string[] = []): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'cts-webhook-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    openssl(
      'req',
      '-x509',
      ...EC,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-days',
      '2',
      '-subj',
      '/CN=cts webhook test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl(
      'req',
      ...EC,
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=localhost',
    );
    const names = ['IP:127.0.0.1', 'DNS:localhost', ...dnsNames.map((name) => `DNS:${name}`)].join(',');
    writeFileSync(
      file('server.ext'),
      [
        `subjectAltName=${names}`,
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature',
        'extendedKeyUsage=serverAuth',
        'subjectKeyIdentifier=hash',
        'authorityKeyIdentifier=keyid,issuer',
      ].join('\n'),
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.crt'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
    );
    return {
      ca: readFileSync(file('ca.crt'), 'utf8'),
      key: readFileSync(file('server.key'), 'utf8'),
      cert: readFileSync(file('server.crt'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
