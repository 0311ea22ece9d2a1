/**
 * The OpenAPI document passes Redocly CLI's recommended rules (apps/server/redocly.yaml): no error,
 * no warning, and exactly the problems .redocly.lint-ignore.yaml lists (each with its reason) are
 * ignored. The CLI runs offline on the document written to a temporary directory.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf } from '../../src/plugins/swagger';
import { buildDocumentedApp, type DocumentedApp } from './document';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = join(SERVER_DIR, 'redocly.yaml');
const IGNORE_FILE = join(SERVER_DIR, '.redocly.lint-ignore.yaml');
const CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}
interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

/** Lints `document` as openapi.json beside copies of the config and its ignore file. */
function lint(document: unknown): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  copyFileSync(CONFIG, join(dir, 'redocly.yaml'));
  copyFileSync(IGNORE_FILE, join(dir, '.redocly.lint-ignore.yaml'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document, null, 2));
  const args = [CLI, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format=json', '--max-problems=10000'];
  // Offline: no usage data, no update check.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    // The CLI exits 1 when it finds errors: the report on stdout is what counts.
    execFile(process.execPath, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      try {
        resolve(JSON.parse(stdout) as LintReport);
      } catch {
        reject(new Error(`redocly lint gave no report (${error?.message ?? 'no error'}): ${stderr}`));
      }
    });
  });
}

const describeProblems = (report: LintReport) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

/** How many problems the ignore file lists. */
const documentedIgnores = () => readFileSync(IGNORE_FILE, 'utf8').match(/^\s*- '#\//gm)?.length ?? 0;

describe('OpenAPI document lint (Redocly recommended)', () => {
  let documented: DocumentedApp;
  beforeAll(async () => {
    documented = await buildDocumentedApp();
  });
  afterAll(async () => {
    await documented?.close();
  });

  it('has no error and no warning; only the documented problems are ignored', async () => {
    const report = await lint(documented.document());
    expect(describeProblems(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: documentedIgnores() });
  });

  it('fails an operation without a security requirement, operationId or 4xx answer, or with an undeclared tag', async () => {
    const document = documented.document();
    const groups = document.paths['/api/groups']!.get! as unknown as Record<string, unknown>;
    groups.tags = ['undeclared'];
    delete groups.security;
    delete groups.operationId;
    const responses = groups.responses as Record<string, unknown>;
    for (const status of Object.keys(responses)) if (status.startsWith('4')) delete responses[status];
    const report = await lint(document);
    const at = (rule: string) =>
      report.problems
        .filter((p) => p.ruleId === rule)
        .map((p) => p.location[0]?.pointer.replace(/\/(responses|operationId)$/, ''));
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(at('security-defined')).toEqual(['#/paths/~1api~1groups/get']);
    expect(at('operation-operationId')).toEqual(['#/paths/~1api~1groups/get']);
    expect(at('operation-4xx-response')).toEqual(['#/paths/~1api~1groups/get']);
    expect(at('operation-tag-defined')).toEqual(['#/paths/~1api~1groups/get/tags/0']);
  });
});

describe('operationIdOf', () => {
  it('is the method and the path after /api in camelCase, a parameter as By{Name}', () => {
    expect(operationIdOf('GET', '/api/device/:id/settings')).toBe('getDeviceByIdSettings');
    expect(operationIdOf('POST', '/api/auth/reset')).toBe('postAuthReset');
    expect(operationIdOf('POST', '/api/auth/reset/:code')).toBe('postAuthResetByCode');
    expect(operationIdOf('GET', '/api/ingest/:id/file/:fileId')).toBe('getIngestByIdFileByFileId');
    expect(operationIdOf('DELETE', '/api/device/:id/notes-image/:slot')).toBe('deleteDeviceByIdNotesImageBySlot');
  });
});
