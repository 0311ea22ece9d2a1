/**
 * The response contract the shared ApiClient applies to every answer (response-contract.ts) fails
 * the call that got an answer the document does not describe: an undocumented status, an
 * undocumented content type, a JSON body that does not match its schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiClient, type ResponseLogEntry } from '../helpers';
import { buildDocumentedApp, type DocumentedApp } from './document';
import { ContractViolation, toJsonSchema } from './response-contract';

/** A route whose handler answers what the test asks for, bypassing its serializer. */
const ANSWERS: Record<string, { status: number; type: string; text: string }> = {
  conforming: { status: 200, type: 'application/json; charset=utf-8', text: '{"name":"n","note":null}' },
  missing: { status: 200, type: 'application/json; charset=utf-8', text: '{"note":"x"}' },
  extra: { status: 200, type: 'application/json; charset=utf-8', text: '{"name":"n","note":null,"secret":1}' },
  teapot: { status: 418, type: 'application/json; charset=utf-8', text: '{"message":"no","code":"TEAPOT"}' },
  text: { status: 200, type: 'text/plain; charset=utf-8', text: 'hello' },
};

describe('response contract of the test client', () => {
  let documented: DocumentedApp;
  let log: ResponseLogEntry[];
  let client: ApiClient;
  beforeAll(async () => {
    documented = await buildDocumentedApp((app) => {
      app.withTypeProvider<ZodTypeProvider>().get(
        '/api/test-contract/:answer',
        {
          schema: {
            tags: ['system'],
            summary: 'Test only',
            params: z.object({ answer: z.string() }),
            response: { 200: z.object({ name: z.string(), note: z.string().nullable() }) },
          },
        },
        async (request, reply) => {
          const answer = ANSWERS[request.params.answer]!;
          return reply
            .code(answer.status as 200)
            .type(answer.type)
            .send(answer.text as unknown as { name: string; note: string | null });
        },
      );
    });
    await documented.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = documented.app.server.address() as AddressInfo;
    log = [];
    client = new ApiClient(`http://127.0.0.1:${port}`, log);
  });
  afterAll(async () => {
    await documented?.close();
  });

  it('passes an answer the document describes, and logs the operation it reached', async () => {
    expect((await client.get('/api/test-contract/conforming')).status).toBe(200);
    // A real operation: 401 is documented for a guarded route.
    expect((await client.get('/api/groups')).status).toBe(401);
    expect(log.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'GET', route: '/api/test-contract/{answer}', status: 200 },
      { method: 'GET', route: '/api/groups', status: 401 },
    ]);
  });

  it('fails a body that does not match the schema of its status', async () => {
    await expect(client.get('/api/test-contract/missing')).rejects.toThrow(ContractViolation);
    await expect(client.get('/api/test-contract/missing')).rejects.toThrow(/must have required property 'name'/);
    await expect(client.get('/api/test-contract/extra')).rejects.toThrow(/must NOT have additional properties/);
  });

  it('fails a status the operation does not document', async () => {
    await expect(client.get('/api/test-contract/teapot')).rejects.toThrow(
      /status 418 is not documented \(documented: 200, 400, 414, 503\)/,
    );
  });

  it('fails a content type the document does not name for the status', async () => {
    await expect(client.get('/api/test-contract/text')).rejects.toThrow(
      /content type text\/plain is not documented for 200 \(documented: application\/json\)/,
    );
  });

  it('reads OpenAPI 3.0 nullable as JSON Schema', () => {
    expect(toJsonSchema({ type: 'string', nullable: true })).toEqual({ type: 'string', nullable: true });
    expect(toJsonSchema({ nullable: true, anyOf: [{ type: 'string' }, { type: 'number' }] })).toEqual({
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }],
    });
    expect(toJsonSchema({ type: 'string', enum: [null, 'a'] })).toEqual({ type: 'string', enum: [null, 'a'] });
    expect(toJsonSchema({ type: 'object', properties: { default: { nullable: true } } })).toEqual({
      type: 'object',
      properties: { default: { anyOf: [{}, { type: 'null' }] } },
    });
  });
});
