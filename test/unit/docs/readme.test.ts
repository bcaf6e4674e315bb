/**
 * The README's client example is the code of test/client/example.ts, which the typecheck covers: a
 * change of the document that breaks the example breaks `npm run typecheck`, and this test keeps the
 * README's copy from drifting away from the checked one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('the README', () => {
  it('shows the client example exactly as test/client/example.ts holds it', () => {
    const file = read('test/client/example.ts');
    const example = /\/\/ README example: start\n([\s\S]*?)\/\/ README example: end\n/.exec(file)?.[1];
    expect(example, 'the markers in test/client/example.ts').toBeDefined();
    expect(read('README.md')).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('says in the quick start how to use another port', () => {
    const quickStart = read('README.md').split('\n## ')[1] ?? '';
    expect(quickStart).toMatch(/^Run it/);
    expect(quickStart).toContain('PORT=');
  });
});
