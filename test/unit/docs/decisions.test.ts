/**
 * The code cites the rules it follows as "docs/decisions.md §N": every such citation must name a section
 * the decision record has, so that a reader who follows it finds the rule, and a renumbered section
 * cannot leave a citation pointing at another rule unnoticed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../lib/errors.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const FOLDERS = ['lib', 'functions', 'infra', 'test', 'bench'];
const RECORD = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts|md)$/.test(name) ? [path] : [];
  });
}

/** "decisions.md §4 and §6", "decisions.md §5, §6": the section numbers a citation names. */
function citedSections(source: string): number[] {
  // A comment's line breaks (and their leading `*` or `//`) do not end a citation.
  const text = source.replace(/\n\s*(?:\*|\/\/)?\s*/g, ' ');
  const sections: number[] = [];
  for (const match of text.matchAll(/decisions(?:\.md)?\s+((?:§\d+(?:\s*(?:,|and)\s*|\s*\*?\s*)?)+)/g)) {
    for (const number of (match[1] ?? '').matchAll(/§(\d+)/g)) sections.push(Number(number[1]));
  }
  return sections;
}

const sections = new Set([...RECORD.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])));
const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));

describe('docs/decisions.md', () => {
  it('numbers its sections from 1 upwards, each number once, in order', () => {
    // Changes made side by side take their numbers ahead, so a number may wait for the change that holds
    // it; every number the code cites must exist (below).
    const numbers = [...RECORD.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(numbers[0]).toBe(1);
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(sections.size).toBeGreaterThanOrEqual(6);
  });

  it('reads citations across line breaks and lists', () => {
    expect(citedSections('decisions.md §4 and\n * §6) and decisions.md §5, §6')).toEqual([4, 6, 5, 6]);
  });

  it('has every section the code cites', () => {
    const citations = files.flatMap((file) => {
      return citedSections(readFileSync(file, 'utf8')).map((section) => ({ file: file.slice(ROOT.length), section }));
    });
    expect(citations.length).toBeGreaterThan(5);
    expect(citations.filter(({ section }) => !sections.has(section))).toEqual([]);
  });

  it('lists every error code of lib/errors.ts with its status, and no other', () => {
    const rows = [...RECORD.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((row) => [row[1], Number(row[2])]);
    const codes = Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]);
    expect(rows.sort()).toEqual(codes.sort());
  });

  it('is the record the code cites: no citation of a decision record outside the repository', () => {
    const elsewhere = files
      .filter((file) => !file.endsWith('decisions.test.ts'))
      .filter((file) => /(?<!docs\/)decisions(?:\.md)? §/.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(ROOT.length));
    expect(elsewhere).toEqual([]);
  });
});
