import { ApiClient } from './api-client';
import { ApiError, NetworkError } from './api-errors';

interface Seen {
  url: string;
  init: RequestInit | undefined;
}

function fakeFetch(response: Response, seen: Seen[] = []): typeof fetch {
  return (input, init) => {
    seen.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      init,
    });
    return Promise.resolve(response);
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('ApiClient', () => {
  it('keeps a path prefix of the base URL and drops trailing slashes', async () => {
    const seen: Seen[] = [];
    const client = new ApiClient('https://ops.example.com/cts/', fakeFetch(json(200, {}), seen));

    await client.send({ method: 'POST', path: '/admin/v1/accounts', body: {}, bearer: 't' });

    expect(seen[0]?.url).toBe('https://ops.example.com/cts/admin/v1/accounts');
  });

  it('sends the bearer token, and a JSON content type only with a body', async () => {
    const seen: Seen[] = [];
    const client = new ApiClient('http://localhost:8080', fakeFetch(json(200, {}), seen));

    await client.send({ method: 'GET', path: '/x', bearer: 'tok' });

    expect(seen[0]?.init?.headers).toEqual({ authorization: 'Bearer tok', accept: 'application/json' });
    expect(seen[0]?.init?.body).toBeUndefined();
  });

  it('turns the error shape into an ApiError with its fields', async () => {
    const body = { error: { code: 'forbidden', message: 'no', request_id: 'req_1', param: 'p' } };
    const client = new ApiClient('http://localhost:8080', fakeFetch(json(403, body)));

    const error: unknown = await client
      .send({ method: 'GET', path: '/x', bearer: 't' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'no',
      requestId: 'req_1',
      param: 'p',
    });
  });

  it('names a non-JSON error after its status and quotes the body', async () => {
    const client = new ApiClient(
      'http://localhost:8080',
      fakeFetch(new Response('<h1>Bad Gateway</h1>', { status: 502 })),
    );

    await expect(client.send({ method: 'GET', path: '/x', bearer: 't' })).rejects.toThrow(
      'http_502: <h1>Bad Gateway</h1>',
    );
  });

  it('reports a 2xx without a JSON body as unexpected', async () => {
    const client = new ApiClient('http://localhost:8080', fakeFetch(new Response('', { status: 200 })));

    await expect(client.send({ method: 'GET', path: '/x', bearer: 't' })).rejects.toThrow(
      'unexpected response from http://localhost:8080/x: HTTP 200 without a JSON body',
    );
  });

  it('wraps a fetch failure in a NetworkError that names the URL and exits 2', async () => {
    const failing: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }));
    const client = new ApiClient('http://127.0.0.1:9', failing);

    const error: unknown = await client
      .send({ method: 'GET', path: '/x', bearer: 't' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(2);
    expect((error as NetworkError).message).toContain(
      'cannot reach http://127.0.0.1:9/x: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('reports a timeout as unreachable', async () => {
    const timingOut: typeof fetch = () => Promise.reject(new DOMException('aborted', 'TimeoutError'));
    const client = new ApiClient('http://localhost:8080', timingOut);

    await expect(client.send({ method: 'GET', path: '/x', bearer: 't' })).rejects.toThrow(
      'cannot reach http://localhost:8080/x: no answer within 30 s',
    );
  });

  it('refuses a URL that is not http or https', () => {
    expect(() => new ApiClient('localhost:8080', fakeFetch(json(200, {})))).toThrow(
      'only http and https are supported',
    );
    expect(() => new ApiClient('not a url', fakeFetch(json(200, {})))).toThrow('invalid --url "not a url"');
  });
});
