/**
 * The body-size cap, where a reader looks for it: the README's and the endpoint guide's common rules, and
 * the reference resolver, whose fields alone allow far more than the cap (50 references of up to 2,000
 * characters). Each says the cap `lib/middleware/body.ts` enforces, and the resolver's rule of thumb (50
 * references of about N characters) is held to what fits in it.
 */
import { describe, expect, it } from 'vitest';
import { REFERENCES_MAX } from '../../../functions/cite-resolve.js';
import { MAX_BODY_BYTES } from '../../../lib/middleware/body.js';
import { readDocument } from '../../support/docs-blocks.js';

const kib = `${MAX_BODY_BYTES / 1024} KiB`;
const bytes = `${MAX_BODY_BYTES.toLocaleString('en-US')} bytes`;

/** The text of a document from a heading to the next heading of the same level or above. */
function section(path: string, heading: string): string {
  const text = readDocument(path);
  const start = text.indexOf(heading);
  expect(start, `${path}: "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const next = text.slice(start + heading.length).search(new RegExp(`\\n#{1,${level}} `));
  return text.slice(start, next < 0 ? undefined : start + heading.length + next);
}

describe('the body-size cap in the documents', () => {
  it('is in the README’s common rules', () => {
    expect(section('README.md', '## Endpoints')).toMatch(new RegExp(`Every body follows the same rules[^]*?at most ${kib}`));
  });

  it('is in the endpoint guide’s common rules, with its figure in bytes and its status', () => {
    const rules = section('docs/endpoints.md', '## Common rules for every request body');
    expect(rules).toContain(`at most ${kib} (${bytes})`);
    expect(rules).toContain('413 `PAYLOAD_TOO_LARGE`');
  });

  it('is in the reference resolver’s section, with how many references of what length fit', () => {
    const resolve = section('docs/citations.md', '### `POST /v1/cite/resolve`').replace(/\s+/g, ' ');
    expect(resolve).toContain(`at most ${kib} (${bytes}; a larger one is 413 \`PAYLOAD_TOO_LARGE\`)`);
    const said = /(\d+) references fit when they average under about (\d+) characters/.exec(resolve);
    expect(said, 'the rule of thumb').not.toBeNull();
    expect(Number(said?.[1])).toBe(REFERENCES_MAX);
    // The longest length of which that many references fit, as the JSON a client sends.
    const body = (length: number) =>
      Buffer.byteLength(JSON.stringify({ references: Array.from({ length: REFERENCES_MAX }, () => 'x'.repeat(length)) }));
    let longest = 0;
    while (body(longest + 1) <= MAX_BODY_BYTES) longest += 1;
    const stated = Number(said?.[2]);
    expect(stated).toBeLessThanOrEqual(longest);
    expect(stated).toBeGreaterThan(longest * 0.85);
  });
});
