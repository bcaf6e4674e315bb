/**
 * The release rules (lib/release/rules.ts), each decided on its own: a release whose every fact holds has
 * no finding, and each fact broken alone is found by its rule and by no other. Then this repository's own
 * files, which CI checks without its tags: package.json's version, the CHANGELOG's newest release, its
 * order and date, and openapi.json agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkRelease, RELEASE_RULES, type ReleaseFacts, readChangelog } from '../../../lib/release/rules.js';

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

- Author-citation plans both its searches.
- The style catalogue pages to the end.

## [1.1.0] — 2026-12-01

- Answer boxes of every type.

## [1.0.0] — 2026-11-26

- The first release.
`;

const good: ReleaseFacts = {
  version: '1.1.0',
  changelog: readChangelog(CHANGELOG.replace(/## \[Unreleased\][^#]*/, '')),
  openapiVersion: '1.1.0',
  today: '2026-12-01',
  tagCommit: 'a'.repeat(40),
  changedSinceTag: [],
};
const rulesOf = (facts: Partial<ReleaseFacts>) => checkRelease({ ...good, ...facts }).map((f) => `${f.severity} ${f.rule}`);

describe('reading CHANGELOG.md', () => {
  it('finds its releases newest first with their dates, and the entries waiting under Unreleased', () => {
    expect(readChangelog(CHANGELOG)).toEqual({
      releases: [
        { version: '1.1.0', date: '2026-12-01' },
        { version: '1.0.0', date: '2026-11-26' },
      ],
      unreleased: ['- Author-citation plans both its searches.', '- The style catalogue pages to the end.'],
    });
    expect(readChangelog('## [1.0.0] — 2026-11-26\n- x\n').unreleased).toBeUndefined();
    expect(readChangelog('## [Unreleased]\n\n## [1.0.0] — 2026-11-26\n').unreleased).toEqual([]);
  });
});

describe('the release rules', () => {
  it('find nothing in a release whose every fact holds', () => {
    expect(checkRelease(good)).toEqual([]);
  });

  it('are these, each named', () => {
    expect(RELEASE_RULES.map((rule) => rule.rule)).toEqual([
      'changelog-version',
      'changelog-dated',
      'changelog-order',
      'openapi-version',
      'tagged',
      'unreleased-changes',
    ]);
  });

  it.each([
    ['a version bumped without its CHANGELOG entry', { version: '1.2.0', openapiVersion: '1.2.0' }, ['error changelog-version']],
    [
      'an entry with no date',
      { changelog: readChangelog('## [1.1.0] — soon\n## [1.0.0] — 2026-11-26\n') },
      ['error changelog-dated'],
    ],
    [
      'an entry dated 31 February',
      { changelog: readChangelog('## [1.1.0] — 2026-02-31\n## [1.0.0] — 2026-01-26\n') },
      ['error changelog-dated'],
    ],
    ['an entry dated after today', { today: '2026-11-30' }, ['error changelog-dated']],
    [
      'releases out of order',
      { changelog: readChangelog('## [1.1.0] — 2026-12-01\n## [1.2.0] — 2026-11-26\n'), version: '1.1.0' },
      ['error changelog-order'],
    ],
    [
      'a newer version dated before an older',
      { changelog: readChangelog('## [1.1.0] — 2026-11-01\n## [1.0.0] — 2026-11-26\n') },
      ['error changelog-order'],
    ],
    ['openapi.json not regenerated', { openapiVersion: '1.0.0' }, ['error openapi-version']],
    ['a release never tagged', { tagCommit: undefined }, ['error tagged']],
    ['code shipped since the tag with no entry', { changedSinceTag: ['lib/budget/budget.ts'] }, ['error unreleased-changes']],
    [
      'code shipped since the tag, listed under Unreleased',
      { changedSinceTag: ['lib/budget/budget.ts'], changelog: readChangelog(CHANGELOG) },
      ['note unreleased-changes'],
    ],
  ] as const)('find %s, by that rule alone', (_, facts, found) => {
    expect(rulesOf(facts as Partial<ReleaseFacts>)).toEqual(found);
  });

  it('accept a release dated today, and a later version dated the same day as the one below it', () => {
    expect(rulesOf({ today: '2026-12-01' })).toEqual([]);
    expect(rulesOf({ changelog: readChangelog('## [1.1.0] — 2026-11-26\n## [1.0.0] — 2026-11-26\n') })).toEqual([]);
  });
});

describe('this repository', () => {
  const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
  const version = (JSON.parse(read('package.json')) as { version: string }).version;

  it('agrees on its version: package.json, the CHANGELOG’s newest release, dated and in order, and openapi.json', () => {
    const facts: ReleaseFacts = {
      version,
      changelog: readChangelog(read('CHANGELOG.md')),
      openapiVersion: (JSON.parse(read('openapi.json')) as { info: { version: string } }).info.version,
      today: new Date().toISOString().slice(0, 10),
      // Its tags and history are the release check's (npm run release:check), not this test's: CI's clone may have none.
      tagCommit: 'not read here',
      changedSinceTag: [],
    };
    expect(checkRelease(facts)).toEqual([]);
  });
});
