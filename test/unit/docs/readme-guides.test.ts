/**
 * The README is read in minutes: at most 400 lines, opening with a table of contents that links every
 * guide in docs/, and the guides hold the rest. Every relative link in the README and the guides must
 * reach an existing file (and, with a `#fragment`, a heading of it), so that moving text between files
 * cannot leave a reader at a dead link.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const GUIDES = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
/** The guides the table of contents must link; the decision record may be linked too, but need not be. */
const REQUIRED_GUIDES = GUIDES.filter((path) => path !== 'docs/decisions.md');

/** The text outside fenced code blocks. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside fenced code blocks and inline code spans, where a link is a link. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** The targets of a Markdown file's inline links and images. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
}

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (match[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every relative link of a file that does not reach an existing file, or a heading of it. */
function brokenLinks(path: string): string[] {
  const markdown = read(path);
  return linkTargets(markdown).filter((target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return false; // https:, mailto: and the like
    const [file = '', fragment] = target.split('#');
    const resolved = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file)));
    if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) return true;
    if (fragment === undefined || !resolved.endsWith('.md') || statSync(join(ROOT, resolved)).isDirectory()) return false;
    return !anchors(read(resolved)).has(decodeURIComponent(fragment).toLowerCase());
  });
}

describe('the README and the guides', () => {
  it('keeps the README to at most 400 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
  });

  it('opens the README, within its first 40 lines, with a table of contents linking every guide', () => {
    const opening = README.split('\n').slice(0, 40).join('\n');
    expect(opening).toMatch(/^(\*\*Contents\*\*|#{2,3} Contents)$/m);
    expect(REQUIRED_GUIDES.length).toBeGreaterThanOrEqual(6);
    const linked = new Set(linkTargets(opening).map((target) => target.split('#')[0]));
    expect(REQUIRED_GUIDES.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it('starts every guide with a one-line summary that links back to the README', () => {
    for (const guide of REQUIRED_GUIDES) {
      const [title, summary] = read(guide)
        .split(/\n\s*\n/)
        .map((block) => block.trim());
      expect(title, guide).toMatch(/^# \S/);
      expect(summary, guide).not.toContain('\n');
      expect(summary, guide).toContain('](../README.md)');
    }
  });

  it('has no relative link, in the README or a guide, that leads nowhere', () => {
    const broken = ['README.md', ...GUIDES].flatMap((path) => brokenLinks(path).map((target) => `${path}: ${target}`));
    expect(broken).toEqual([]);
  });

  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('[a](docs/x.md) `[b](nowhere.md)` ![c](d.png "title")\n```\n[e](f.md)\n```\n')).toEqual([
      'docs/x.md',
      'd.png',
    ]);
    expect([
      ...anchors('## Citation search — `POST /v1/cite/search`\n## Deployed mode, locally\n## Run it\n## Run it\n'),
    ]).toEqual(['citation-search--post-v1citesearch', 'deployed-mode-locally', 'run-it', 'run-it-1']);
  });

  it('keeps the quick start and test commands as they are', () => {
    expect(README).toContain('npm install && npm start');
    expect(README).toContain('npm install && npm test');
  });
});
