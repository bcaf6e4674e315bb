/**
 * THIRD-PARTY-NOTICES.md, written from the installed production dependencies (packages.ts), the accepted
 * licences (licences.ts) and the data the repository keeps (below). `npm run notices` writes it;
 * test/unit/lib/notices.test.ts fails while the committed file differs from what this renders, or while a
 * package's licence is not accepted.
 */
import { ACCEPTED_LICENCES, acceptedChoice, LICENCE_EXCEPTIONS } from './licences.js';
import type { InstalledPackage } from './packages.js';

export const NOTICES_FILE = 'THIRD-PARTY-NOTICES.md';

/** The data the repository keeps from others, where it goes, its terms, and where its provenance is written. */
export const DATA_SETS: readonly { what: string; where: string; licence: string; shipped: string; sources: string }[] = [
  {
    what: 'Citation Style Language styles and locales (the style pack, the MLA and Chicago styles, the en-GB locale)',
    where: '`lib/citations/render/styles/`',
    licence:
      'Creative Commons Attribution-ShareAlike 3.0 Unported, by the CSL project and the authors, contributors and translators each file names',
    shipped:
      'deployed: once, as the Lambda layer of cite-search, cite-resolve, cite-check, cite-styles and mcp (`infra/style-pack-layer.ts`), read at run time; each file stored unchanged, with its own metadata and `<rights>`',
    sources: '[lib/citations/render/styles/SOURCES.md](lib/citations/render/styles/SOURCES.md)',
  },
  {
    what: 'The APA, Harvard (`harvard1`) and Vancouver styles and the en-US locale',
    where: '`@citation-js/plugin-csl` (its `lib/styles.json`, `lib/locales.json`), also pinned in the style pack',
    licence: 'Creative Commons Attribution-ShareAlike 3.0 Unported, as above (the package itself is MIT)',
    shipped: 'deployed: in the style pack',
    sources: '[lib/citations/render/styles/SOURCES.md](lib/citations/render/styles/SOURCES.md)',
  },
  {
    what: 'SerpApi’s parameter metadata (the lists request validation takes its codes from)',
    where: '`lib/upstream/serpapi-params/`; the lists generated from it, `lib/upstream/serpapi-options.ts`',
    licence: 'MIT, Copyright (c) 2025 SerpApi (`LICENSE-serpapi-mcp` beside the files)',
    shipped: 'deployed: the generated lists are compiled into every function',
    sources: '[lib/upstream/serpapi-params/SOURCES.md](lib/upstream/serpapi-params/SOURCES.md)',
  },
  {
    what: 'Recorded and constructed SerpApi answers',
    where: '`lib/local/samples/`',
    licence:
      'per file: MIT, SerpApi’s documentation, or none stated by the repository they were found in (all rights reserved by default); the constructed ones are the project’s own',
    shipped: 'not deployed: the demo upstream of `npm start` and the tests read them',
    sources: '[lib/local/samples/SOURCES.md](lib/local/samples/SOURCES.md)',
  },
  {
    what: 'Recorded Crossref answers',
    where: '`lib/local/samples/crossref/`',
    licence: 'the recordings’ repositories are MIT; Crossref asserts no ownership of bibliographic metadata',
    shipped: 'not deployed: the demo Crossref of `npm start` and the tests read them',
    sources: '[lib/local/samples/crossref/SOURCES.md](lib/local/samples/crossref/SOURCES.md)',
  },
  {
    what: 'Test fixtures: recorded API Gateway event, Crossref records and reference strings, the CSL-JSON schema',
    where: '`test/fixtures/`',
    licence: 'per file: MIT, MIT-0, BSD-2-Clause Plus Patent, AGPL-3.0 (bibliographic records only, no code)',
    shipped: 'not deployed: the tests read them',
    sources: '[test/fixtures/SOURCES.md](test/fixtures/SOURCES.md)',
  },
];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The Apache License 2.0's terms as a package of the closure ships them (the appendix, a template, left off). */
export function apacheText(packages: readonly InstalledPackage[]): string | undefined {
  for (const pkg of packages) {
    const text = pkg.licenceText ?? '';
    const start = text.indexOf('Apache License');
    const end = text.indexOf('END OF TERMS AND CONDITIONS');
    if (acceptedChoice(pkg.licence)?.includes('Apache-2.0') && start >= 0 && end > start) {
      return text.slice(start, end + 'END OF TERMS AND CONDITIONS'.length);
    }
  }
  return undefined;
}

function citeprocSection(packages: readonly InstalledPackage[]): string[] {
  const citeproc = packages.filter((pkg) => pkg.name === 'citeproc');
  if (citeproc.length === 0) return [];
  return [
    '## citeproc: CPAL-1.0 or AGPL, and what that means for you',
    '',
    `citeproc (citeproc-js, by Frank Bennett; ${citeproc.map((pkg) => pkg.version).join(', ')}) is the CSL processor that renders every citation. It is`,
    'bundled into the functions that render citations: cite-search, cite-resolve, cite-check and mcp. Its package.json',
    'says `CPAL-1.0 OR AGPL-1.0`; its licence file, quoted below, says the Common Public Attribution License',
    'version 1 or later, or the GNU Affero General Public License version 3 or later. You choose one of the',
    'two for citeproc; this project’s own code stays under its MIT licence. What follows is a summary to',
    'help you decide, not legal advice.',
    '',
    '- **Either way, a deployment uses citeproc over a network.** The CPAL treats making it available as an',
    '  application used over a network as distributing it (its section 15, "Network Use"); the AGPL asks',
    '  for the source of a modified version to be offered to its network users (its section 13).',
    '- **Under the CPAL-1.0** (a file-level copyleft based on the Mozilla Public License 1.1): keep',
    '  citeproc’s copyright and licence notice (this file carries it), and make citeproc’s source available',
    '  to the users of your deployment, saying where: unmodified, as here, that is its published source,',
    `  ${citeproc.map((pkg) => `\`citeproc@${pkg.version}\``).join(', ')} on npm (https://www.npmjs.com/package/citeproc) or`,
    '  https://github.com/juris-m/citeproc-js, for example one line in the documentation you give your',
    '  clients. Changes you make to citeproc’s own files must be published under the CPAL too; code of',
    '  yours that only calls it (this project, your changes to it) is a "Larger Work" the CPAL does not',
    '  cover. Its attribution clause (section 14) applies to information an author names in the licence’s',
    '  Exhibit B; citeproc’s licence file names none beyond its copyright notice.',
    '- **Under the AGPL-3.0 or later**: unmodified, keep its notices. If you modify citeproc, you must offer',
    '  every user of your deployment the complete source of the program your modified citeproc runs in:',
    '  for these functions, this project with your changes.',
    '- This project uses citeproc unmodified. Read as the CPAL, a deployment of it as it is owes a notice of',
    '  where citeproc’s source is, and citeproc’s notices kept.',
    '',
    'Its licence file:',
    '',
    '```text',
    citeproc[0]?.licenceText ?? '',
    '```',
    '',
  ];
}

/** The notice, from the installed packages (the closure `productionPackages` reads). */
export function renderNotices(packages: readonly InstalledPackage[]): string {
  const used = new Set(packages.flatMap((pkg) => acceptedChoice(pkg.licence) ?? []));
  const apache = apacheText(packages);
  const texts = Object.entries(ACCEPTED_LICENCES)
    .filter(([id]) => used.has(id))
    .flatMap(([id, { name, text }]) => {
      const body = text === 'from-a-package' ? apache : text;
      if (body === undefined) throw new Error(`no package of the closure ships the text of ${id}`);
      return [`### ${id}: ${name}`, '', '```text', body, '```', ''];
    });
  const notices = packages.filter((pkg) => pkg.noticeText);
  const chosen = (pkg: InstalledPackage) => {
    const choice = acceptedChoice(pkg.licence);
    if (choice && choice.join(' AND ') !== pkg.licence) return `${pkg.licence} (used under ${choice.join(' AND ')})`;
    const exception = LICENCE_EXCEPTIONS.find((entry) => entry.name === pkg.name && entry.licence === pkg.licence);
    if (!exception) return pkg.licence;
    // citeproc's terms have a section of their own; any other exception says why it is accepted.
    return exception.name === 'citeproc'
      ? `${pkg.licence} (see "citeproc" above)`
      : `${pkg.licence} (accepted: ${exception.reason})`;
  };
  return [
    '# Third-party notices',
    '',
    'This project’s own code and documents are under the MIT licence ([LICENSE](LICENSE)). It is built on',
    'the work of others, under their own terms, listed here: the packages the service runs on, then the data',
    'the repository keeps. This file is written by `npm run notices` (`lib/notices/`) from the installed',
    'packages; a test fails while it is out of date, and fails on a package whose licence is not one of the',
    'accepted ones below (see [Decisions](docs/decisions.md), "Versions and the licence").',
    '',
    '## What a deployment holds',
    '',
    `The production dependencies (${packages.length} packages, every one \`npm ci\` installs for \`dependencies\`) are what the`,
    'functions can hold: esbuild bundles into each function only the code it imports, and leaves the AWS',
    'SDK for JavaScript (`@aws-sdk/*` and the `@smithy/*` packages it uses) to the copy the Lambda runtime',
    'provides. The functions that render citations or search the style catalogue also use the CSL style',
    'pack, data deployed once as their Lambda layer (below). `npm start` runs the same packages from',
    '`node_modules`. Development tools (the test runner, the CDK, TypeScript, …) are not listed: they are',
    'not part of what is deployed.',
    '',
    ...citeprocSection(packages),
    '## Data',
    '',
    '| Data | Where | Licence | Deployed? | Provenance |',
    '| --- | --- | --- | --- | --- |',
    ...DATA_SETS.map(
      (set) => `| ${cell(set.what)} | ${cell(set.where)} | ${cell(set.licence)} | ${cell(set.shipped)} | ${set.sources} |`,
    ),
    '',
    'The CSL styles and locales are shared under CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/):',
    'whoever passes them on (a deployment’s bundle holds them) keeps their attribution, which each file',
    'carries in its own metadata, and shares them, and changes to them, under the same licence. The',
    'recordings without a stated licence are kept only to run the demo and the tests; they are not',
    'deployed and this project’s MIT licence does not extend to them.',
    '',
    `## Packages (${packages.length})`,
    '',
    '| Package | Version | Licence | Copyright |',
    '| --- | --- | --- | --- |',
    ...packages.map(
      (pkg) => `| \`${pkg.name}\` | ${pkg.version} | ${cell(chosen(pkg))} | ${cell(pkg.copyright.join('; ') || '—')} |`,
    ),
    '',
    ...(notices.length > 0
      ? [
          '## NOTICE files',
          '',
          ...notices.flatMap((pkg) => [`### \`${pkg.name}\` ${pkg.version}`, '', '```text', pkg.noticeText ?? '', '```', '']),
        ]
      : []),
    '## Licence texts',
    '',
    'Each accepted licence once; a package’s own copyright lines are in the table above.',
    '',
    ...texts,
  ].join('\n');
}
