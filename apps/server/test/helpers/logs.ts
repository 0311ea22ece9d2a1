/** The portal's log lines captured as parsed JSON objects. */
import { Writable } from 'node:stream';

export interface LogCapture {
  stream: Writable;
  lines: Record<string, unknown>[];
}

export function captureLogs(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      partial += chunk.toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}
