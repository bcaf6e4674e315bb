/**
 * A reader copies one block of commands at a time: every shell variable a block of the README or a guide
 * uses must be set in that same block (`NAME=…`, `export NAME=…`, `read … NAME`, `for NAME in`), or be one
 * the shell itself provides. The few that a guide's later block takes from an earlier one are listed,
 * each with its reason, and an entry that no block needs any more fails too.
 */
import { describe, expect, it } from 'vitest';
import { documentPaths, fencedBlocks, readDocument } from '../../support/docs-blocks.js';

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

/** Variables every shell has. */
const SHELL_OWN = new Set(['HOME', 'PATH', 'PWD', 'USER', 'SHELL', 'TMPDIR']);

/** Variables a block takes from an earlier block of the same document, by document, with the reason. */
const SET_EARLIER: readonly { file: string; variable: string; reason: string }[] = [
  ...['API_URL', 'KEYS', 'UPSTREAM'].map((variable) => ({
    file: 'docs/deploy-and-operations.md',
    variable,
    reason: 'read from the stack outputs by the block at the top of "Deploy" (`out()`), which the later steps follow',
  })),
  {
    file: 'docs/deploy-and-operations.md',
    variable: 'ADMIN',
    reason: 'the deploy that adds a client repeats the first deploy, whose block names the admin (`aws sts get-caller-identity`)',
  },
  {
    file: 'docs/deploy-and-operations.md',
    variable: 'AWS_ENDPOINT_URL_SECRETS_MANAGER',
    reason: 'exported by the block before it in "Deployed mode, locally"',
  },
];

/** The variables a shell block expands, outside single quotes and comments. */
function usedVariables(text: string): string[] {
  const expanded = text.replace(/'[^']*'/g, "''").replace(/(^|\s)#[^\n]*/g, '$1');
  return [...new Set([...expanded.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? ''))];
}

/** The variables a shell block sets. */
function setVariables(text: string): string[] {
  const assigned = [...text.matchAll(/(?:^|[\s;&|(])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/g)].map((match) => match[1]);
  const read = [...text.matchAll(/\bread\s+(?:-\w+\s+)*([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]);
  const loops = [...text.matchAll(/\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b/g)].map((match) => match[1]);
  // A later name of one `export A=1 B=2`.
  const exported = [...text.matchAll(/\bexport((?:\s+[A-Za-z_][A-Za-z0-9_]*=\S+)+)/g)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)=/g)].map((name) => name[1]),
  );
  return [...new Set([...assigned, ...read, ...loops, ...exported].filter((name): name is string => Boolean(name)))];
}

const blocks = documentPaths().flatMap((file) => fencedBlocks(file, readDocument(file)).filter((block) => SHELL.has(block.lang)));
const missing = blocks.flatMap((block) => {
  const set = new Set(setVariables(block.text));
  return usedVariables(block.text)
    .filter((name) => !set.has(name) && !SHELL_OWN.has(name))
    .map((variable) => ({ file: block.file, line: block.line, variable }));
});

describe('the shell variables of the documents’ commands', () => {
  it('are read as the shell reads them', () => {
    const text = [
      'out() { aws x --query "S[?K==\'$1\']"; }',
      'API_URL=$(out ApiUrl); KEYS=x',
      'read -rs SERPAPI_KEY   # not $COMMENTED',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, where ${…} is the shell's
      'curl "${API_URL}v1" -H "Bearer $CLIENT_KEY" -d \'{"a":"$NOT_EXPANDED"}\'',
      'export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test',
    ].join('\n');
    expect(usedVariables(text).sort()).toEqual(['API_URL', 'CLIENT_KEY']);
    expect(setVariables(text).sort()).toEqual(['API_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'KEYS', 'SERPAPI_KEY']);
  });

  it('are set in the block that uses them, or listed with the reason they are not', () => {
    const unlisted = missing.filter(
      (entry) => !SET_EARLIER.some((listed) => listed.file === entry.file && listed.variable === entry.variable),
    );
    expect(unlisted.map((entry) => `${entry.file}:${entry.line}: $${entry.variable} is used but not set in its block`)).toEqual(
      [],
    );
  });

  it('lists no variable that every block now sets for itself', () => {
    const stale = SET_EARLIER.filter(
      (listed) => !missing.some((entry) => entry.file === listed.file && entry.variable === listed.variable),
    );
    expect(stale.map((entry) => `${entry.file}: ${entry.variable}`)).toEqual([]);
  });

  it('the README’s own blocks need no list: each sets what it uses', () => {
    expect(missing.filter((entry) => entry.file === 'README.md')).toEqual([]);
  });
});
