/**
 * What a job's submission can be (lib/contract/jobs.ts, JOB_BODY_MAX_BYTES): Lambda refuses a synchronous
 * invocation whose event is over 6 MiB (6,291,456 bytes: "Request must be smaller than 6291456 bytes for
 * the InvokeFunction operation"), and API Gateway puts the body into the event as a JSON string, escaped
 * once more, beside the request's headers and context. Measured on a recorded REST proxy event with bodies
 * at the limit made of real reference strings and of a BibTeX file: each event fits, with the room printed;
 * and the case that does not (a body of nothing but characters JSON escapes) is measured too, as the
 * endpoint guide says.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOB_BODY_MAX_BYTES } from '../../../lib/contract/jobs.js';
import { fixture } from '../../support/reference-strings.js';

const LAMBDA_INVOKE_MAX_BYTES = 6_291_456;
const RECORDED = JSON.parse(
  readFileSync(new URL('../../fixtures/apigw-rest-proxy-event.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** The event API Gateway sends for this body to POST /v1/jobs, as JSON, in bytes. */
function eventBytes(body: string): number {
  return Buffer.byteLength(JSON.stringify({ ...RECORDED, resource: '/v1/jobs', path: '/v1/jobs', body }));
}

/** The body `{"kind":"resolve","<field>":…}` with as many of `parts` (cycled) as fit the limit, each as JSON writes it. */
function atLimit(field: 'references' | 'bibliography', parts: (i: number) => string): string {
  const head = `{"kind":"resolve","${field}":${field === 'references' ? '[' : '"'}`;
  const tail = field === 'references' ? ']}' : '"}';
  // Each part as it appears in the body: a JSON string in the list, or escaped text inside the one string.
  const written = (part: string) => (field === 'references' ? JSON.stringify(part) : JSON.stringify(part).slice(1, -1));
  const chunks: string[] = [];
  let bytes = Buffer.byteLength(head + tail);
  for (let i = 0; ; i += 1) {
    const chunk = (i > 0 && field === 'references' ? ',' : '') + written(parts(i));
    const size = Buffer.byteLength(chunk);
    if (bytes + size > JOB_BODY_MAX_BYTES) break;
    chunks.push(chunk);
    bytes += size;
  }
  return head + chunks.join('') + tail;
}

const TEXTS = fixture.cases.map((c) => c.text);
const BIBTEX_ENTRY = (i: number) =>
  `@article{boettiger2018noise${i},\n\tauthor = {Boettiger, Carl and M{\\"u}ller, J{\\"o}rg},\n\ttitle = {From noise to knowledge: how randomness generates novel phenomena and reveals information},\n\tjournal = {Ecology Letters},\n\tvolume = {21},\n\tnumber = {8},\n\tpages = {1255--1267},\n\tyear = {2018},\n\tdoi = {10.1111/ele.13085},\n}\n`;

describe("a job's body at its limit, in the event Lambda is invoked with", () => {
  it('fits as a list of real reference strings, and as a BibTeX file', () => {
    const list = atLimit('references', (i) => TEXTS[i % TEXTS.length] as string);
    const bib = atLimit('bibliography', (i) => `${BIBTEX_ENTRY(i)}\n`);
    for (const [name, body] of [
      ['references', list],
      ['BibTeX', bib],
    ] as const) {
      const bytes = eventBytes(body);
      const growth = bytes / Buffer.byteLength(body) - 1;
      console.log(
        `${name}: body ${Buffer.byteLength(body)} bytes, event ${bytes} bytes (+${(growth * 100).toFixed(1)} %), ${LAMBDA_INVOKE_MAX_BYTES - bytes} bytes to spare`,
      );
      expect(bytes, name).toBeLessThanOrEqual(LAMBDA_INVOKE_MAX_BYTES);
    }
  });

  it('does not fit when the body is mostly characters JSON escapes again (quotes, backslashes), as the guide says', () => {
    const escaped = atLimit('bibliography', () => '\\"'.repeat(1_000));
    expect(eventBytes(escaped)).toBeGreaterThan(LAMBDA_INVOKE_MAX_BYTES);
  });
});
