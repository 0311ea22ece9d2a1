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
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';

/** Bytes from which an answer is compressed (docs/decisions.md, 'Compression'). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** text/* but event streams, and JSON or XML (also +json, +xml); not application/octet-stream. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[+/](?:json|xml)(?:;|$)/;

const COMPRESS_OPTIONS = {
  threshold: COMPRESS_THRESHOLD_BYTES,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  customTypes: COMPRESSIBLE_TYPES,
};

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { ...COMPRESS_OPTIONS, globalDecompression: false });
}

/**
 * A route's compression for answers of megabytes (the group data of 10,000 devices, 8 MB of
 * JSON): brotli quality 1 and gzip level 1 instead of 4 and 6. Brotli 4 took about 240 ms of the
 * event loop for 8 MB here, quality 1 about 20 ms, for an answer about 40% larger (still under 4%
 * of the JSON; docs/decisions.md, 'Group data call and search'). The answer is compressed in one
 * call (syncThreshold) rather than streamed through zlib in small chunks: for 7.7 MB the stream
 * took about 160 ms, one call about 25 ms (of the event loop, as the answer is built in it anyway).
 */
export const LARGE_ANSWER_COMPRESSION = {
  ...COMPRESS_OPTIONS,
  syncThreshold: 64 * 1024 * 1024,
  brotliOptions: {
    params: {
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      [zlibConstants.BROTLI_PARAM_QUALITY]: 1,
    },
  },
  zlibOptions: { level: 1 },
};
