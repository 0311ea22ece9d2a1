/**
 * The README's table of environment variables (its 'Configuration' section) is what config.ts
 * generates (`configTableMarkdown`, `npm run config-table -w apps/server`), row for row: a variable
 * added, removed or described anew in config.ts fails here until the README is regenerated.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, configTableMarkdown } from '../../src/config-variables';

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));
const HEADER = '| Variable | Default | Meaning |';

/** The rows of the table that starts with the variables' header line: every line up to the first that is not a row. */
function environmentTable(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(HEADER);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end < 0 ? lines.length : end);
}

describe("the README's environment table", () => {
  const readme = readFileSync(README, 'utf8');
  const generated = configTableMarkdown().split('\n');

  it('is in the Configuration section, once', () => {
    const configuration = readme.indexOf('\n## Configuration\n');
    expect(configuration).toBeGreaterThan(0);
    expect(readme.indexOf(HEADER)).toBeGreaterThan(configuration);
    expect(readme.indexOf(HEADER)).toBe(readme.lastIndexOf(HEADER));
  });

  it('equals what config.ts generates, row for row', () => {
    expect(environmentTable(readme)).toEqual(generated);
  });

  it('has a row for every variable config.ts reads', () => {
    expect(generated).toHaveLength(CONFIG_VARIABLES.length + 2);
  });

  it('is caught when one row drifts', () => {
    const drifted = readme.replace('| `MQTT_PORT` | `1883` |', '| `MQTT_PORT` | `1884` |');
    expect(drifted).not.toBe(readme);
    const differing = environmentTable(drifted).filter((row, i) => row !== generated[i]);
    expect(differing).toEqual([expect.stringMatching(/^\| `MQTT_PORT` \| `1884` \|/)]);
  });
});
