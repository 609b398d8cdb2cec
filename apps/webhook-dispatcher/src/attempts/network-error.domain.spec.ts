import { classifyRequestFailure } from './network-error.domain';

describe('classifyRequestFailure', () => {
  it.each([
    [{ name: 'TimeoutError', message: 'The operation was aborted due to timeout' }, 'timeout'],
    [{ name: 'AbortError' }, 'timeout'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT' }, 'timeout'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, 'timeout'],
    [{ code: 'UND_ERR_BODY_TIMEOUT' }, 'timeout'],
    [{ causeCode: 'ETIMEDOUT' }, 'timeout'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }, 'connection_refused'],
    [{ causeCode: 'ECONNREFUSED' }, 'connection_refused'],
    [{ code: 'ENOTFOUND' }, 'dns_error'],
    [{ code: 'EAI_AGAIN' }, 'dns_error'],
    [{ code: 'EWEBHOOKBLOCKED', message: 'resolves to a metadata address' }, 'destination_refused'],
    [{ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'tls_error'],
    [{ code: 'SELF_SIGNED_CERT_IN_CHAIN' }, 'tls_error'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls_error'],
    [{ code: 'CERT_HAS_EXPIRED' }, 'tls_error'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls_error'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 'tls_error'],
    [{ message: 'unable to get local issuer certificate' }, 'tls_error'],
    [{ code: 'ECONNRESET' }, 'connection_error'],
    [{ code: 'UND_ERR_SOCKET', message: 'other side closed' }, 'connection_error'],
    [{ code: 'EHOSTUNREACH' }, 'connection_error'],
    [{}, 'connection_error'],
  ] as const)('%p → %s', (failure, expected) => {
    expect(classifyRequestFailure(failure)).toBe(expected);
  });
});
