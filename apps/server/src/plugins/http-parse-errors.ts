/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an address or header block over
 * the header limit, a malformed request line, a request that takes too long) are answered like
 * every other error: status + JSON { message, code }, then the connection is closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '@portal/core';

const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The address or the request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/** Fastify's `clientErrorHandler`. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = ANSWERS[error.code ?? ''] ?? [400, 'The request is malformed.'];
  const body = JSON.stringify({ message, code: 'BAD_REQUEST' } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
