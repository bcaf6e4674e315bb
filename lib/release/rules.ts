/**
 * What makes a release (docs/decisions.md §15, §23): the version bumped in package.json and written in
 * openapi.json, a dated CHANGELOG entry for it, newest first, and a git tag `v<version>` on the release's
 * commit; and, on any later commit, every change to what the service ships listed under "Unreleased" until
 * the next release takes it. Pure: the facts are gathered by lib/release/check.ts (package.json, CHANGELOG.md,
 * openapi.json, git), and each rule of the verdict names itself, so a test, the guide and the command's
 * output read the same list.
 */

/** One release of CHANGELOG.md: `## [1.0.0] — 2026-11-26`. */
export interface ChangelogRelease {
  version: string;
  date: string;
}

export interface Changelog {
  releases: ChangelogRelease[];
  /** The bullet lines of `## [Unreleased]`, or undefined when there is no such section. */
  unreleased: string[] | undefined;
}

const RELEASE = /^## \[(\d+\.\d+\.\d+)\] — (\S+)\s*$/;
const UNRELEASED = /^## \[Unreleased\]\s*$/i;

/** The releases (newest first, as written) and the Unreleased section's entries of a CHANGELOG.md. */
export function readChangelog(text: string): Changelog {
  const releases: ChangelogRelease[] = [];
  let unreleased: string[] | undefined;
  let inUnreleased = false;
  for (const line of text.split('\n')) {
    const release = RELEASE.exec(line);
    if (release) {
      releases.push({ version: release[1] as string, date: release[2] as string });
      inUnreleased = false;
    } else if (UNRELEASED.test(line)) {
      unreleased = [];
      inUnreleased = true;
    } else if (line.startsWith('## ')) {
      inUnreleased = false;
    } else if (inUnreleased && /^\s*[-*] \S/.test(line)) {
      unreleased?.push(line.trim());
    }
  }
  return { releases, unreleased };
}

/** What the check reads: the files' versions and the repository's tags and history. */
export interface ReleaseFacts {
  /** package.json's `version`. */
  version: string;
  changelog: Changelog;
  /** openapi.json's `info.version`. */
  openapiVersion: string;
  /** Today, YYYY-MM-DD (UTC). */
  today: string;
  /** The commit `v<version>` points at, or undefined when there is no such tag. */
  tagCommit: string | undefined;
  /** The files that ship (see SHIPPED) changed between the tag and the commit checked out; [] without a tag. */
  changedSinceTag: string[];
}

/** What a release ships: a change to one of these after a release's tag is a change its users may see. */
export const SHIPPED = ['functions/', 'lib/', 'infra/', 'openapi.json', 'package.json', 'package-lock.json'] as const;

export interface Finding {
  rule: string;
  /** `error`: not a release; `note`: said, changes nothing. */
  severity: 'error' | 'note';
  /** What is wrong, and what to do. */
  says: string;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;
const compare = (a: string, b: string) => {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  for (let i = 1; i <= 3; i++) {
    const diff = Number(x?.[i]) - Number(y?.[i]);
    if (diff !== 0) return diff;
  }
  return 0;
};
const realDate = (date: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;

/** Each rule of a release, by name. */
export const RELEASE_RULES: readonly { rule: string; check: (facts: ReleaseFacts) => Finding[] }[] = [
  {
    rule: 'changelog-version',
    check: ({ version, changelog }) =>
      changelog.releases[0]?.version === version
        ? []
        : [
            {
              rule: 'changelog-version',
              severity: 'error',
              says: `CHANGELOG.md's newest release is ${changelog.releases[0]?.version ?? 'missing'}, package.json's version ${version}: write "## [${version}] — <date>" above the others`,
            },
          ],
  },
  {
    rule: 'changelog-dated',
    check: ({ changelog, today }) => {
      const newest = changelog.releases[0];
      if (!newest) return [];
      if (!realDate(newest.date)) {
        return [
          {
            rule: 'changelog-dated',
            severity: 'error',
            says: `${newest.version} is dated "${newest.date}": give the release's date, YYYY-MM-DD`,
          },
        ];
      }
      return newest.date > today
        ? [
            {
              rule: 'changelog-dated',
              severity: 'error',
              says: `${newest.version} is dated ${newest.date}, after today (${today})`,
            },
          ]
        : [];
    },
  },
  {
    rule: 'changelog-order',
    check: ({ changelog }) =>
      changelog.releases.slice(1).flatMap((older, i) => {
        const newer = changelog.releases[i] as ChangelogRelease;
        return compare(newer.version, older.version) > 0 && newer.date >= older.date
          ? []
          : [
              {
                rule: 'changelog-order',
                severity: 'error' as const,
                says: `${newer.version} (${newer.date}) is listed above ${older.version} (${older.date}): newest first, each a higher version, none dated before the one below it`,
              },
            ];
      }),
  },
  {
    rule: 'openapi-version',
    check: ({ version, openapiVersion }) =>
      openapiVersion === version
        ? []
        : [
            {
              rule: 'openapi-version',
              severity: 'error',
              says: `openapi.json says ${openapiVersion}, package.json ${version}: run npm run openapi (and npm run client:types)`,
            },
          ],
  },
  {
    rule: 'tagged',
    check: ({ version, tagCommit }) =>
      tagCommit === undefined
        ? [
            {
              rule: 'tagged',
              severity: 'error',
              says: `no tag v${version}: package.json's version was never released, or its release was not tagged; tag the release's commit (git tag -a v${version} -m "Release ${version}")`,
            },
          ]
        : [],
  },
  {
    rule: 'unreleased-changes',
    check: ({ version, changelog, changedSinceTag }) => {
      if (changedSinceTag.length === 0) return [];
      const listed = (changelog.unreleased?.length ?? 0) > 0;
      const files = `${changedSinceTag.slice(0, 5).join(', ')}${changedSinceTag.length > 5 ? `, … (${changedSinceTag.length})` : ''}`;
      return [
        listed
          ? {
              rule: 'unreleased-changes',
              severity: 'note',
              says: `changes since v${version} (${files}) wait under "## [Unreleased]" for the next release`,
            }
          : {
              rule: 'unreleased-changes',
              severity: 'error',
              says: `what the service ships changed since v${version} (${files}) with no entry under "## [Unreleased]" in CHANGELOG.md: list it there, and release it with a new version`,
            },
      ];
    },
  },
];

/** Every finding of every rule, in the rules' order. */
export function checkRelease(facts: ReleaseFacts): Finding[] {
  return RELEASE_RULES.flatMap(({ check }) => check(facts));
}
