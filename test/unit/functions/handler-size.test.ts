/**
 * The house keeps a handler short: a file in functions/ holds its request schema, the mapping to the
 * upstream, the reshaping and one api() chain, within HANDLER_MAX_LINES (docs/architecture.md, "Layout");
 * what grows past that belongs in lib/, one folder per concern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HANDLER_MAX_LINES = 120;
const FUNCTIONS = new URL('../../../functions/', import.meta.url);

/** The lines of a file as an editor counts them: a final newline ends the last line, it starts none. */
function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

describe('the handlers in functions/', () => {
  const handlers = readdirSync(FUNCTIONS).filter((name) => name.endsWith('.ts'));

  it(`are each at most ${HANDLER_MAX_LINES} lines`, () => {
    expect(handlers.length).toBeGreaterThan(10);
    const long = handlers
      .map((name) => ({ name, lines: lineCount(readFileSync(new URL(name, FUNCTIONS), 'utf8')) }))
      .filter(({ lines }) => lines > HANDLER_MAX_LINES)
      .map(({ name, lines }) => `functions/${name}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('are counted as an editor counts lines', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount(`${'x\n'.repeat(HANDLER_MAX_LINES)}x\n`)).toBe(HANDLER_MAX_LINES + 1);
  });
});
