import { newId } from '@cts/contracts';
import { type Server, STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';
import { REQUEST_ID_HEADER } from './request-id.middleware';

/** What Node's HTTP parser refused before any route ran, as status and words. */
function refusalOf(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request line and headers are larger than the server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    default:
      return { status: 400, message: 'The request is not valid HTTP' };
  }
}

/**
 * Requests Node refuses before any route runs (headers or URL too large, malformed HTTP) get the
 * documented error shape and a request id too, instead of Node's bare status line.
 */
export function answerClientErrorsInTheErrorShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = refusalOf(error.code);
    const requestId = newId('req');
    const body = JSON.stringify({ error: { code: 'invalid_request', message, request_id: requestId } });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `${REQUEST_ID_HEADER}: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
