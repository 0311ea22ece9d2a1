/**
 * Answers over 1 kB leave compressed when the client takes it (brotli, else gzip, by its
 * Accept-Encoding, with Vary: Accept-Encoding): API JSON, and CSV or JSON exports as they stream.
 * Not compressed: answers under 1 kB (the encoding saves less than it costs), binary bodies
 * (images and device files are compressed already, or read by firmware), Server-Sent Events,
 * ranges. Request bodies are not decompressed: clients and devices send plain JSON.
 *
 * @fastify/compress attaches itself to each route declared after it: app.ts registers it after the
 * web app's files, which the build compressed once (plugins/static.ts), and before every other route.
 */
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';

/** Bytes from which an answer is compressed (docs/decisions.md, 'Compression'). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** text/* but event streams, and JSON or XML (also +json, +xml); not application/octet-stream. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[+/](?:json|xml)(?:;|$)/;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE_TYPES,
    globalDecompression: false,
  });
}
