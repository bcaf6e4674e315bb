/**
 * The reference check's labelled set (test/integration/cite-check-labelled.test.ts): real references and
 * each kind of problem made from them, every one built from works the project has recorded, and the
 * registries simulated from the same works (a fake Crossref, DataCite and Google Scholar that hold them and
 * rank them for a query as a search engine would).
 *
 * Works: the 411 recorded Crossref works of the reference-matcher's set (with their print and online dates
 * and whole author lists, from the same recordings: reference-extras.json), the 14 of Crossref's own matcher,
 * the 20 of the demo's recording, the 29 of the versions-and-numbers set (test/fixtures/SOURCES.md), 17
 * recorded PLOS ONE correction notices (test/fixtures/crossref/notices-plos-one.json), the recorded DataCite
 * records (an arXiv preprint, datasets, a Zenodo preprint), and 17 papers only Google Scholar's recorded
 * answers hold. Constructed beside them, and said so in each case: the articles the notices correct (their
 * title and authors from the notice, the correction as their `updated-by`), and retractions (a recorded
 * work with a retraction in its update metadata, in the shape Crossref's REST API gives).
 *
 * Real references: the real reference strings deposited with recorded works (each labelled with its DOI),
 * and recorded works rendered by the service's own five styles, pasted in messy ways, or given as BibTeX,
 * RIS and CSL-JSON. Problems: each kind the 2026 benchmarks of fabricated references label.
 */
import { readFileSync } from 'node:fs';
import { renderExports } from '../../lib/citations/exports/exports.js';
import { type CslItem, citableItem, cslFromCrossref } from '../../lib/citations/model/csl.js';
import { normalizeText } from '../../lib/citations/model/text.js';
import { type CrossrefWork, workYear } from '../../lib/citations/model/work.js';
import type { CitationRenderer } from '../../lib/citations/render/render.js';
import { workFromDataCite } from '../../lib/citations/sources/datacite.js';
import { fixture as referenceStrings } from './reference-strings.js';

/** What a reference of the set is: real (its verdict must be `verified`), or a problem of a kind. */
export type Kind =
  | 'real: deposited string'
  | 'real: rendered in a style'
  | 'real: pasted'
  | 'real: entry (BibTeX, RIS, CSL-JSON)'
  | 'real: notice cited as itself'
  | 'real: DataCite record'
  | 'real: Google Scholar only'
  | 'real: cited by its print or online year'
  | 'deposited string with a mistake of its own'
  | 'fabricated title, real authors'
  | 'invented authors'
  | '2 of N authors'
  | 'swapped authors'
  | 'future year'
  | 'year off by one'
  | 'year off by two'
  | 'near-miss title'
  | 'wrong venue'
  | 'preprint cited as published'
  | 'fabricated DOI'
  | 'DOI of another work'
  | 'merged from two works'
  | 'notice versus its article'
  | 'retracted work';

export interface LabelledReference {
  kind: Kind;
  /** The reference as a request gives it: text, a BibTeX entry, a RIS record, or a CSL-JSON item. */
  reference: string | Record<string, unknown>;
  /** Whether Google Scholar is to be asked (the works only it holds). */
  scholar: boolean;
  /** What it was made from, and how. */
  note: string;
}

const json = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;

// ---------------------------------------------------------------------------------------------------------
// The recorded works

/** What the reference-matcher set's trim left out, from the same recordings (test/fixtures/crossref/write-reference-extras.py). */
const extras = json<{ works: Record<string, Partial<CrossrefWork>> }>('../fixtures/crossref/reference-extras.json').works;
const poolWorks = Object.entries(referenceStrings.works).map(([doi, entry]) => ({ ...entry.record, ...extras[doi] }));
const matcherWorks = json<{ works: { work: CrossrefWork }[] }>('../fixtures/crossref/works-reference-matcher.json').works.map(
  (entry) => entry.work,
);
const demoWorks = json<{ message: { items: CrossrefWork[] } }>(
  '../../lib/local/samples/crossref/works-ecology-carl-boettiger.json',
).message.items;
const versionWorks = json<{ record: CrossrefWork }[]>('../fixtures/crossref/records-versions-and-numbers.json').map(
  (entry) => entry.record,
);
export const NOTICES = json<{ works: CrossrefWork[] }>('../fixtures/crossref/notices-plos-one.json').works;

/** The articles the recorded notices correct, constructed from them (the notice's title without its mark, its authors and journal). */
export const CORRECTED_ARTICLES: CrossrefWork[] = NOTICES.flatMap((notice) => {
  const update = notice['update-to']?.[0];
  if (!update?.DOI) return [];
  return [
    {
      DOI: update.DOI,
      title: [(notice.title?.[0] ?? '').replace(/^correction:\s*/i, '')],
      author: notice.author,
      issued: notice.issued,
      'container-title': notice['container-title'],
      type: 'journal-article',
      'updated-by': [{ DOI: notice.DOI, type: update.type, source: 'publisher', updated: update.updated }],
    },
  ];
});

const dataCiteRecords: Record<string, unknown>[] = [
  ...['doi-10.48550-arxiv.2201.06719', 'doi-10.5061-dryad.8515', 'doi-10.5281-zenodo.18951275'].map(
    (name) => json<{ data: Record<string, unknown> }>(`../../lib/local/samples/datacite/${name}.json`).data,
  ),
  ...[
    'prereview-figshare',
    'prereview-zenodo',
    'prereview-zenodo-journal-article',
    'prereview-osf-project',
    'prereview-dryad-alt',
  ].map((name) => json<{ data: Record<string, unknown> }>(`../fixtures/datacite/${name}.json`).data),
];
export const DATACITE_WORKS = dataCiteRecords.flatMap((record) => workFromDataCite(record) ?? []);

/** Google Scholar's recorded results: papers the registries here do not hold. */
export const SCHOLAR_RESULTS: Record<string, unknown>[] = [
  ...json<{ organic_results: Record<string, unknown>[] }>('../../lib/local/samples/google_scholar.json').organic_results,
  ...json<{ organic_results: Record<string, unknown>[] }>('../../lib/local/samples/google_scholar_authors.json').organic_results,
  ...json<{ organic_results: Record<string, unknown>[] }>('../fixtures/serpapi/google_scholar-2023-11-20.json').organic_results,
];

/** The print and online years a record gives. */
function printOnline(work: CrossrefWork): number[] {
  return [work['published-print'], work['published-online']].flatMap((date) => {
    const year = date?.['date-parts']?.[0]?.[0];
    return typeof year === 'number' ? [year] : [];
  });
}

const usable = (work: CrossrefWork) =>
  Boolean(work.title?.[0]) && (work.author ?? []).some((person) => person.family) && workYear(work) !== null;

function unique(works: readonly CrossrefWork[]): CrossrefWork[] {
  const seen = new Set<string>();
  return works.filter((work) => {
    const doi = work.DOI.toLowerCase();
    if (seen.has(doi)) return false;
    seen.add(doi);
    return true;
  });
}

/** Recorded works with a retraction constructed in their update metadata (Crossref's shape; Retraction Watch's source). */
function retracted(work: CrossrefWork, i: number): CrossrefWork {
  return {
    ...work,
    'updated-by': [
      {
        DOI: `10.9999/retraction-notice-${i}`,
        type: 'retraction',
        label: 'Retraction',
        source: 'retraction-watch',
        updated: { 'date-parts': [[(workYear(work) ?? 2000) + 2, 6, 1]] },
      },
    ],
  };
}

/** Every work the simulated registries hold: Crossref's (recorded, and the constructed articles and retractions) and DataCite's. */
export interface Registries {
  crossref: CrossrefWork[];
  dataCite: Record<string, unknown>[];
  scholar: Record<string, unknown>[];
}

/**
 * Deposited strings that misstate their work, checked by hand against its recorded record: the problem is
 * the string's, not the check's (by the start of the string).
 */
const MISTAKES: [string, string][] = [
  [
    "Polyzos SA, Anastasilakis AD, Terpos E (2009) Paget's disease of bone: a review",
    'cited in press under another title ("a review with emphasis to treatment"; the record: "emphasis on treatment")',
  ],
  [
    'Polyzos SA, Kountouras J, Zavos C (2009) Nonalcoholic fatty liver disease',
    'volume 72; the record (Current Molecular Medicine, 2009) is volume 9',
  ],
  [
    'Polyzos SA, Anastasilakis AD (2009) Alterations in serum thyroid-related constituents following',
    'cited as epub under its earlier title ("following"; the record: "After Thyroid Fine-Needle Biopsy")',
  ],
];

// ---------------------------------------------------------------------------------------------------------
// Messes and styles

/** Fabricated titles, written here: what a language model invents (plausible, about nothing recorded). */
const FABRICATED_TITLES = [
  'Adaptive gradient scaling for robust federated optimization in heterogeneous networks',
  'A unified framework for causal representation learning under distribution shift',
  'Hierarchical attention mechanisms for long-horizon ecological forecasting',
  'Quantifying uncertainty in neural surrogate models of coastal erosion',
  'Towards interpretable transformers for protein–ligand binding affinity',
  'Sparse mixture-of-experts routing for low-resource machine translation',
  'Contrastive pretraining of graph encoders for materials discovery',
  'Bayesian structural equation models of urban heat island mitigation',
  'Emergent cooperation in multi-agent reinforcement learning with partial observability',
  'Latent diffusion priors for single-cell transcriptomic imputation',
  'Scalable variational inference for spatiotemporal epidemic models',
  'On the convergence of asynchronous stochastic approximation with delayed feedback',
  'Self-supervised anomaly detection in industrial acoustic sensor arrays',
  'Meta-learning hyperparameter schedules for physics-informed neural networks',
  'A longitudinal cohort study of microbiome resilience after antibiotic exposure',
  'Robust estimation of treatment effects with high-dimensional confounders',
  'Neural operator methods for turbulent boundary layer prediction',
  'Knowledge distillation for energy-efficient edge inference in smart grids',
  'Evaluating large language models as annotators for clinical trial eligibility',
  'Cross-lingual transfer of discourse parsers via multilingual alignment',
  'Topological signatures of synaptic plasticity in recurrent cortical circuits',
  'Privacy-preserving record linkage with homomorphic bloom filters',
  'Climate-driven range shifts of alpine pollinators across three decades',
  'Graph neural networks for predicting soil carbon sequestration',
  'Multimodal retrieval augmentation for scientific question answering',
];

/** People who never wrote these works, written here. */
const INVENTED_PEOPLE = [
  ['Halvorsen', 'Ingrid'],
  ['Okonkwo', 'Chidera'],
  ['Vasquez-Moreau', 'Lucia'],
  ['Tanaka', 'Hiroshi'],
  ['Brennan', 'Siobhan'],
  ['Kowalczyk', 'Piotr'],
  ['Adeyemi', 'Folake'],
  ['Lindqvist', 'Erik'],
  ['Castellano', 'Mateo'],
  ['Nakamura', 'Aiko'],
  ['Petrov', 'Dmitri'],
  ['Osei', 'Kwame'],
];

const STYLES = ['APA', 'MLA', 'Chicago', 'Harvard', 'Vancouver'] as const;

/** A link a reference ends with, or a DOI written plainly: what a search reads around. */
const LINK = /\s*(?:https?:\/\/\S+|doi:\s*\S+|Available at:\s*\S+|DOI:\s*\S+)\.?\s*$/i;

function withoutLinks(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) out = out.replace(LINK, '').trim();
  return /[.?!]$/.test(out) ? out : `${out}.`;
}

/** Pasted as from a PDF: wrapped at 60 characters, CR LF, a word split by a hyphen across a line, no-break spaces. */
function pasted(text: string, i: number): string {
  const mode = i % 4;
  if (mode === 0) return text.replace(/(.{50,60}?)\s/g, '$1\n');
  if (mode === 1) return text.replace(/(.{40,55}?)\s/g, '$1\r\n');
  if (mode === 2) return `${i + 1}. ${text.replace(/ /g, '\u00a0')}`;
  return text.replace(/\b(\w{4})(\w{4,})/, '$1-\n$2');
}

// ---------------------------------------------------------------------------------------------------------
// The set

function firstLong(title: string, taken: ReadonlySet<string>): string | undefined {
  return title.split(/\s+/).find((word) => /^[A-Za-z]{6,}$/.test(word) && !taken.has(word.toLowerCase()));
}

/** The recorded works the set is made from, the works it retracts, and the registries that hold them all. */
export function simulatedRegistries(): {
  registries: Registries;
  candidates: CrossrefWork[];
  crossrefRecorded: CrossrefWork[];
  retractedWorks: CrossrefWork[];
} {
  const crossrefRecorded = unique([...poolWorks, ...matcherWorks, ...demoWorks, ...versionWorks, ...NOTICES]).filter(
    (work) => !work.DOI.startsWith('10.9999/'),
  );
  const candidates = crossrefRecorded.filter(
    (work) => usable(work) && work.type === 'journal-article' && (work.title?.[0] ?? '').split(/\s+/).length >= 5,
  );
  // The works retracted here: none a deposited string cites (those are real references to unretracted works).
  const cited = new Set(referenceStrings.cases.flatMap((one) => (one.doi ? [one.doi.toLowerCase()] : [])));
  const retractedWorks = candidates
    .filter((work) => !cited.has(work.DOI.toLowerCase()))
    .slice(0, 20)
    .map(retracted);
  const byDoi = new Map(crossrefRecorded.map((work) => [work.DOI.toLowerCase(), work]));
  for (const work of [...retractedWorks, ...CORRECTED_ARTICLES]) byDoi.set(work.DOI.toLowerCase(), work);
  const registries: Registries = { crossref: [...byDoi.values()], dataCite: dataCiteRecords, scholar: SCHOLAR_RESULTS };
  return { registries, candidates, crossrefRecorded, retractedWorks };
}

/**
 * The labelled set and the registries that hold its works. `render` is the service's own renderer (the five
 * pinned styles); `currentYear` the clock's year (a future year is made from it).
 */
export async function labelledSet(
  renderer: CitationRenderer,
  currentYear: number,
): Promise<{ references: LabelledReference[]; registries: Registries }> {
  const { registries, candidates, crossrefRecorded, retractedWorks } = simulatedRegistries();
  const retractedDois = new Set(retractedWorks.map((work) => work.DOI.toLowerCase()));

  const references: LabelledReference[] = [];
  const add = (kind: Kind, reference: LabelledReference['reference'], note: string, scholar = false) =>
    references.push({ kind, reference, note, scholar });
  const render = (csl: CslItem, style: (typeof STYLES)[number]) => renderer.render(citableItem(csl), 'text')[style] ?? '';
  const csl = (work: CrossrefWork) => cslFromCrossref(work);
  let n = 0;
  const style = () => STYLES[n++ % STYLES.length] as (typeof STYLES)[number];
  // Each kind takes the next works in turn (a work may serve several kinds: each reference is checked alone).
  const rest = candidates.filter((work) => !retractedDois.has(work.DOI.toLowerCase()));
  let next = 0;
  const take = (count: number, filter: (work: CrossrefWork) => boolean = () => true) => {
    const taken: CrossrefWork[] = [];
    for (let tried = 0; tried < rest.length && taken.length < count; tried++) {
      const work = rest[next++ % rest.length] as CrossrefWork;
      if (filter(work)) taken.push(work);
    }
    return taken;
  };

  // Real: the deposited strings, each labelled with its work's DOI; those that misstate their work, checked
  // by hand against its record, are problems of their own.
  for (const one of referenceStrings.cases.filter((c) => c.doi)) {
    const mistake = MISTAKES.find(([start]) => one.text.startsWith(start))?.[1];
    if (mistake) add('deposited string with a mistake of its own', one.text, `labelled ${one.doi}: ${mistake}`);
    else
      add('real: deposited string', one.text, `deposited with a recorded work (${one.source.repository}), labelled ${one.doi}`);
  }
  // Real: recorded works in the five styles, half with their DOI link.
  for (const [i, work] of take(120).entries()) {
    const text = render(csl(work), style());
    add(
      'real: rendered in a style',
      i % 2 === 0 ? text : withoutLinks(text),
      `${work.DOI} rendered${i % 2 ? ', its link removed' : ''}`,
    );
  }
  for (const [i, work] of take(40).entries()) {
    add('real: pasted', pasted(withoutLinks(render(csl(work), style())), i), `${work.DOI} rendered and pasted (mess ${i % 4})`);
  }
  for (const [i, work] of take(36).entries()) {
    const format = (['bibtex', 'ris', 'csl-json'] as const)[i % 3] as 'bibtex' | 'ris' | 'csl-json';
    const item = csl(work);
    const exported = await renderExports(item, [format], `entry${i}`);
    const reference = format === 'csl-json' ? (exported.csl_json as Record<string, unknown>) : (exported[format] as string);
    add('real: entry (BibTeX, RIS, CSL-JSON)', reference, `${work.DOI} exported as ${format}`);
  }
  for (const notice of NOTICES) {
    add('real: notice cited as itself', withoutLinks(render(csl(notice), style())), `the recorded notice ${notice.DOI}`);
  }
  for (const work of DATACITE_WORKS.filter(usable)) {
    add('real: DataCite record', render(csl(work), style()), `the recorded DataCite record ${work.DOI}`);
  }
  for (const result of SCHOLAR_RESULTS) {
    add(
      'real: Google Scholar only',
      scholarReference(result),
      `recorded Scholar result ${String(result.result_id ?? result.title)}`,
      true,
    );
  }

  // Problems, each from a real work.
  for (const [i, work] of take(25).entries()) {
    const item = { ...csl(work), title: FABRICATED_TITLES[i] };
    const text = render(item, style());
    add(
      'fabricated title, real authors',
      i % 2 ? withoutLinks(text) : text,
      `${work.DOI}'s authors, venue and year, an invented title`,
    );
  }
  for (const [i, work] of take(25).entries()) {
    const people = [INVENTED_PEOPLE[i % 12], INVENTED_PEOPLE[(i + 5) % 12]].map((p) => ({ family: p?.[0], given: p?.[1] }));
    add(
      'invented authors',
      withoutLinks(render({ ...csl(work), author: people }, style())),
      `${work.DOI} under invented authors`,
    );
  }
  for (const work of take(25, (w) => (w.author ?? []).length >= 4)) {
    const item = csl(work);
    add(
      '2 of N authors',
      withoutLinks(render({ ...item, author: (item.author as unknown[]).slice(0, 2) }, 'APA')),
      `${work.DOI}, 2 of ${work.author?.length} authors, no "et al."`,
    );
  }
  for (const work of take(25, (w) => (w.author ?? []).length >= 2)) {
    const people = [...((csl(work).author as unknown[]) ?? [])];
    [people[0], people[1]] = [people[1], people[0]];
    add(
      'swapped authors',
      withoutLinks(render({ ...csl(work), author: people }, style())),
      `${work.DOI}, its first two authors swapped`,
    );
  }
  const withYear = (work: CrossrefWork, year: number) => ({ ...csl(work), issued: { 'date-parts': [[year]] } });
  for (const [i, work] of take(20).entries()) {
    add(
      'future year',
      withoutLinks(render(withYear(work, currentYear + 5 + (i % 2)), style())),
      `${work.DOI}, year ${currentYear + 5 + (i % 2)}`,
    );
  }
  // A year later than its print and online years (where they differ, a year off to the other is no mistake).
  for (const work of take(20, (w) => printOnline(w).every((year) => year === workYear(w)))) {
    add('year off by one', withoutLinks(render(withYear(work, (workYear(work) ?? 0) + 1), style())), `${work.DOI}, a year later`);
  }
  const offByOne = (w: CrossrefWork) => printOnline(w).find((year) => Math.abs(year - (workYear(w) ?? year)) === 1);
  for (const work of take(15, (w) => offByOne(w) !== undefined)) {
    const other = offByOne(work) as number;
    add(
      'real: cited by its print or online year',
      withoutLinks(render(withYear(work, other), style())),
      `${work.DOI}, cited by ${other}`,
    );
  }
  for (const [i, work] of take(20).entries()) {
    const year = (workYear(work) ?? 0) + (i % 2 ? 2 : -2);
    add('year off by two', withoutLinks(render(withYear(work, year), style())), `${work.DOI}, year ${year}`);
  }
  const words = new Set(crossrefRecorded.flatMap((work) => normalizeText(work.title?.[0] ?? '').split(' ')));
  const replacements = [...words].filter((word) => /^[a-z]{6,}$/.test(word)).sort();
  for (const [i, work] of take(25, (w) => (w.title?.[0] ?? '').split(/\s+/).length >= 6).entries()) {
    const title = String(csl(work).title ?? '').replace(/<[^>]*>/g, '');
    const own = new Set(normalizeText(title).split(' '));
    const word = firstLong(title, new Set()) ?? '';
    // Another word, not a form of this one ("association" is no near miss of "associations").
    const unlike = replacements.filter(
      (candidate) => !own.has(candidate) && candidate.slice(0, 4) !== word.toLowerCase().slice(0, 4),
    );
    const other = unlike[(i * 37) % unlike.length] ?? 'variation';
    add(
      'near-miss title',
      withoutLinks(render({ ...csl(work), title: title.replace(word, other) }, style())),
      `${work.DOI}, "${word}" → "${other}"`,
    );
  }
  const journals = [...new Set(crossrefRecorded.flatMap((work) => work['container-title']?.[0] ?? []))]
    .filter((name) => name.length > 10)
    .sort();
  for (const [i, work] of take(25, (w) => Boolean(w['container-title']?.[0])).entries()) {
    const own = work['container-title']?.[0] ?? '';
    const other = journals.filter((name) => normalizeText(name) !== normalizeText(own))[(i * 13) % journals.length] as string;
    add(
      'wrong venue',
      withoutLinks(render({ ...csl(work), 'container-title': other }, style())),
      `${work.DOI}, in "${other}" for "${own}"`,
    );
  }
  const preprints = [
    ...crossrefRecorded.filter((work) => work.type === 'posted-content' && usable(work)),
    ...DATACITE_WORKS.filter((work) => work.type === 'posted-content' && usable(work)),
  ];
  for (const [i, work] of [...preprints, ...preprints].entries()) {
    const published = {
      ...csl(work),
      type: 'article-journal',
      genre: undefined,
      'container-title': journals[(i * 7) % journals.length],
      volume: String(10 + i),
      page: `${100 + i}-${120 + i}`,
    };
    const text = render(published, style());
    add(
      'preprint cited as published',
      i < preprints.length ? withoutLinks(text) : text,
      `${work.DOI}, a preprint cited in "${published['container-title']}"`,
    );
  }
  for (const [i, work] of take(20).entries()) {
    const text = withoutLinks(render(csl(work), 'APA'));
    add(
      'fabricated DOI',
      `${text} https://doi.org/10.${5000 + i}/fab.${2019 + i}.${1000 + i * 7}`,
      `${work.DOI} with a DOI no registry holds`,
    );
  }
  const others = take(40);
  for (let i = 0; i + 1 < others.length; i += 2) {
    const [work, other] = [others[i] as CrossrefWork, others[i + 1] as CrossrefWork];
    add(
      'DOI of another work',
      `${withoutLinks(render(csl(work), style()))} https://doi.org/${other.DOI}`,
      `${work.DOI} with ${other.DOI}'s DOI`,
    );
  }
  const merged = take(40);
  for (let i = 0; i + 1 < merged.length; i += 2) {
    const [work, other] = [merged[i] as CrossrefWork, merged[i + 1] as CrossrefWork];
    const item = { ...csl(other), title: csl(work).title };
    add(
      'merged from two works',
      withoutLinks(render(item, style())),
      `${work.DOI}'s title, ${other.DOI}'s authors, venue and year`,
    );
  }
  for (const notice of NOTICES) {
    const article = CORRECTED_ARTICLES.find((a) => a.DOI === notice['update-to']?.[0]?.DOI) as CrossrefWork;
    add(
      'notice versus its article',
      `${withoutLinks(render(csl(notice), style()))} https://doi.org/${article.DOI}`,
      `the notice ${notice.DOI} with its article's DOI`,
    );
    add(
      'notice versus its article',
      `${withoutLinks(render(csl(article), style()))} https://doi.org/${notice.DOI}`,
      `the article ${article.DOI} (constructed) with its notice's DOI`,
    );
  }
  for (const [i, work] of retractedWorks.entries()) {
    const text = render(csl(work), style());
    add('retracted work', i % 2 ? withoutLinks(text) : text, `${work.DOI}, a retraction constructed in its update metadata`);
  }
  return { references, registries };
}

/** A reference to a paper only Google Scholar holds, as an author would write it from the paper. */
function scholarReference(result: Record<string, unknown>): string {
  const summary = String((result.publication_info as { summary?: string } | undefined)?.summary ?? '');
  const [authorText = '', middle = ''] = summary.split(/\s+-\s+/);
  const cut = /…/.test(authorText);
  const authors = authorText
    .replace(/…/g, '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => {
      const [initials, ...family] = name.split(' ');
      return `${family.join(' ')}, ${[...(initials ?? '')].map((letter) => `${letter}.`).join(' ')}`;
    });
  const year = /(\d{4})\s*$/.exec(middle)?.[1] ?? '';
  const venue = middle
    .replace(/,?\s*\d{4}\s*$/, '')
    .replace(/\s*…\s*/g, ' ')
    .trim();
  const title = String(result.title ?? '').replace(/\.$/, '');
  return `${authors.join(', ')}${cut ? ', et al.' : ''} (${year}). ${title}.${venue && !/^\d{4}$/.test(venue) ? ` ${venue}.` : ''}`;
}

// ---------------------------------------------------------------------------------------------------------
// The registries, simulated from the works: each ranks its works for a query as write-reference-strings.py
// ranks a pool (the sum of log(N / df) over the query's distinct words each work's fields hold).

function wordsOf(text: string): string[] {
  return [
    ...new Set(
      normalizeText(text)
        .split(' ')
        .filter((word) => word.length > 1),
    ),
  ];
}

/** A ranker over documents: the `rows` best for a query, best first (ties to the earlier document). */
export function ranker<T>(documents: readonly T[], fields: (document: T) => string): (query: string, rows: number) => T[] {
  const indexed = documents.map((document) => new Set(wordsOf(fields(document))));
  const df = new Map<string, number>();
  for (const words of indexed) for (const word of words) df.set(word, (df.get(word) ?? 0) + 1);
  const n = documents.length;
  return (query, rows) => {
    const asked = wordsOf(query);
    return indexed
      .map((words, i) => ({
        i,
        score: asked.reduce((sum, word) => sum + (words.has(word) ? Math.log(n / (df.get(word) ?? 1)) : 0), 0),
      }))
      .filter((one) => one.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, rows)
      .map((one) => documents[one.i] as T);
  };
}

const workFields = (work: CrossrefWork) =>
  [
    ...(work.title ?? []),
    ...(work.subtitle ?? []),
    ...(work.author ?? []).map((person) => person.family ?? person.name ?? ''),
    ...(work['container-title'] ?? []),
    String(workYear(work) ?? ''),
    work.volume ?? '',
    work.page ?? '',
  ].join(' ');

const answer = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });

/** The fake Crossref's answers: DOIs looked up, and bibliographic queries ranked over the works. */
export function crossrefResponder(works: readonly CrossrefWork[]) {
  const byDoi = new Map(works.map((work) => [work.DOI.toLowerCase(), work]));
  const rank = ranker(works, workFields);
  return (query: URLSearchParams) => {
    const filter = query.get('filter') ?? '';
    const items = filter.startsWith('doi:')
      ? filter.split(',').flatMap((part) => byDoi.get(part.replace(/^doi:/, '').toLowerCase()) ?? [])
      : rank(query.get('query.bibliographic') ?? '', Number(query.get('rows') ?? 5));
    return answer({ status: 'ok', 'message-type': 'work-list', message: { 'total-results': items.length, items } });
  };
}

/** The fake DataCite's answers: several DOIs at once (`ids`), one DOI, and searches ranked over the records. */
export function dataCiteResponder(records: readonly Record<string, unknown>[]) {
  const byDoi = new Map(records.map((record) => [String(record.id).toLowerCase(), record]));
  const rank = ranker(records, (record) => {
    const work = workFromDataCite(record);
    return work ? workFields(work) : '';
  });
  return (path: string, query: URLSearchParams) => {
    const one = /^\/dois\/(.+)$/.exec(path)?.[1];
    if (one) {
      const held = byDoi.get(decodeURIComponent(one).toLowerCase());
      return held
        ? answer({ data: held })
        : {
            status: 404,
            body: JSON.stringify({ errors: [{ status: '404', title: "The resource you are looking for doesn't exist." }] }),
          };
    }
    const ids = query.get('ids');
    const data = ids
      ? ids.split(',').flatMap((id) => byDoi.get(id.toLowerCase()) ?? [])
      : rank(query.get('query') ?? '', Number(query.get('page[size]') ?? 5));
    return answer({ data, meta: { total: data.length }, links: {} });
  };
}

/** The fake Google Scholar's answers: the recorded results ranked for the query. */
export function scholarResponder(results: readonly Record<string, unknown>[]) {
  const rank = ranker(results, (result) =>
    [result.title, (result.publication_info as { summary?: string } | undefined)?.summary].join(' '),
  );
  return (query: URLSearchParams) =>
    query.get('engine') === 'google_scholar'
      ? {
          json: {
            search_metadata: { status: 'Success' },
            organic_results: rank(query.get('q') ?? '', Number(query.get('num') ?? 10)),
          },
        }
      : undefined;
}
