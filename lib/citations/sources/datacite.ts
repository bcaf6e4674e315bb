/**
 * DataCite's REST API (https://support.datacite.org/docs/api): free, no key. DataCite registers the DOIs
 * Crossref does not know: every arXiv DOI (10.48550/arXiv.…), Zenodo's, Dryad's, figshare's, OSF's, most
 * datasets'. A DOI is looked up with GET /dois/{doi} (a 404 is "no record"), a paper or a reference with
 * GET /dois?query=… (Elasticsearch query-string syntax; only words and the fields named here are sent,
 * so no character of a title can change the query's meaning). Its JSON:API records are read into the
 * shape Crossref's works have (workFromDataCite), so that the matchers and the CSL mapping serve both.
 * Paced for the whole deployment like Crossref (lib/pace/), with CROSSREF_MAILTO as the contact address.
 */
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { deploymentPace } from '../../pace/deployment.js';
import { PACE_KEYS } from '../../routes.js';
import { REPOSITORIES } from '../model/repository.js';
import type { ScholarRecord } from '../model/scholar.js';
import { normalizeText } from '../model/text.js';
import type { CrossrefPerson, CrossrefWork } from '../model/work.js';
import { fetchJson } from './fetch-json.js';
import { publishedPace } from './published-pace.js';

/**
 * DataCite's pace for the deployment (lib/pace/), like Crossref's: DATACITE_REQUESTS_PER_SECOND, else 1.5 a
 * second without a contact address and 3 with one (DataCite allows 500 and 1,000 requests per 5 minutes
 * per IP address).
 */
export const dataCitePace = deploymentPace(PACE_KEYS.datacite, 'DataCite', dataCiteRate());

export function dataCiteRate(): number {
  return config.DATACITE_REQUESTS_PER_SECOND ?? publishedPace('datacite', Boolean(config.CROSSREF_MAILTO));
}

/**
 * DOI prefixes DataCite registers for the repositories a reference most often names: arXiv, Zenodo, Dryad,
 * figshare, PANGAEA, Harvard Dataverse, GBIF, OSF. Their DOIs are asked of DataCite first: Crossref would
 * only answer that it does not know them.
 */
export const DATACITE_PREFIXES: ReadonlySet<string> = new Set(REPOSITORIES.flatMap((repository) => repository.prefixes));

/** Whether a DOI's prefix is one DataCite registers for a known repository (DATACITE_PREFIXES). */
export function isDataCiteDoi(doi: string): boolean {
  return DATACITE_PREFIXES.has(doi.split('/')[0] ?? '');
}

/** An arXiv identifier's DOI (model/identifiers.ts, where links are read): arXiv registers one for every paper. */
export { arxivDoi } from '../model/identifiers.js';

/** Candidates per search: the right record, when DataCite has it, is nearly always among the first few. */
const PAGE_SIZE = 5;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/**
 * A DataCite creator or contributor as Crossref writes a person: given and family names when DataCite
 * has them (or "Family, Given" in `name` for a person), else the name whole, as an organisation's is.
 */
function person(entry: Json): CrossrefPerson | undefined {
  const given = text(entry.givenName);
  const family = text(entry.familyName);
  const name = text(entry.name);
  if (entry.nameType === 'Organizational') return name ? { name } : undefined;
  if (family) return given ? { given, family } : { family };
  if (!name) return undefined;
  const comma = /^([^,]+),\s*(.+)$/.exec(name);
  if (comma && entry.nameType !== undefined) return { given: comma[2]?.trim() ?? '', family: comma[1]?.trim() ?? '' };
  // A name without its parts and no sign of a person (no type, no comma): kept whole, never split wrongly.
  return { name };
}

/** "2022", "2022-07", "2022-07-22", "2020/2021" → date parts; undefined for anything else. */
function dateParts(value: string | undefined): number[] | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value ?? '');
  if (!match) return undefined;
  return match.slice(1).flatMap((part) => (part ? [Number(part)] : []));
}

/** Publishers of preprints DataCite registers as plain "Text" (arXiv's records are `Text`/`Article`). */
const PREPRINT_PUBLISHER = /^(?:arxiv|osf preprints|authorea|preprints\.org|research square|ssrn)$/i;

/**
 * The Crossref type of a DataCite record, from its resourceTypeGeneral (and, for "Text", its free
 * resourceType, publisher and container): a preprint is Crossref's posted content whatever DataCite calls
 * it, so that the matchers' version rules and the styles' "[Preprint]" treat both alike.
 */
export function crossrefType(types: Json, publisher: string | undefined, doi: string, container: string | undefined): string {
  const general = text(types.resourceTypeGeneral) ?? '';
  const specific = (text(types.resourceType) ?? '').toLowerCase();
  if (general === 'Preprint' || /preprint/.test(specific) || doi.startsWith('10.48550/')) return 'posted-content';
  if (general === 'Text' && PREPRINT_PUBLISHER.test(publisher ?? '')) return 'posted-content';
  const byGeneral: Record<string, string> = {
    Dataset: 'dataset',
    Software: 'software',
    JournalArticle: 'journal-article',
    Book: 'book',
    BookChapter: 'book-chapter',
    ConferencePaper: 'proceedings-article',
    ConferenceProceeding: 'proceedings',
    Dissertation: 'dissertation',
    Report: 'report',
    Standard: 'standard',
  };
  const mapped = byGeneral[general];
  if (mapped) return mapped;
  if (general === 'Text' && (/journal article/.test(specific) || (specific === 'article' && container))) return 'journal-article';
  if (general === 'Text' && /thesis|dissertation/.test(specific)) return 'dissertation';
  if (general === 'Text' && /report/.test(specific)) return 'report';
  if (general === 'Text' && /book/.test(specific)) return 'book';
  return 'other';
}

/**
 * A DataCite record (one `data` item of its JSON:API answer) as a Crossref-shaped work; undefined when it
 * has no DOI. Nothing is added that the record does not say.
 */
export function workFromDataCite(item: unknown): CrossrefWork | undefined {
  if (!isRecord(item)) return undefined;
  const attributes = isRecord(item.attributes) ? item.attributes : {};
  const doi = text(attributes.doi) ?? text(item.id);
  if (!doi) return undefined;
  const titles = list(attributes.titles);
  const main = titles.find((title) => !text(title.titleType)) ?? titles[0];
  const subtitle = titles.find((title) => title.titleType === 'Subtitle');
  const publisher = isRecord(attributes.publisher) ? text(attributes.publisher.name) : text(attributes.publisher);
  const container = isRecord(attributes.container) ? attributes.container : {};
  const containerTitle = text(container.title);
  const issuedDate = list(attributes.dates).find((date) => date.dateType === 'Issued');
  const issued = dateParts(text(issuedDate?.date)) ?? dateParts(text(attributes.publicationYear));
  const editors = list(attributes.contributors).filter((entry) => entry.contributorType === 'Editor');
  const firstPage = text(container.firstPage);
  const lastPage = text(container.lastPage);
  const work: CrossrefWork = {
    DOI: doi,
    agency: 'datacite',
    title: main && text(main.title) ? [text(main.title) as string] : undefined,
    subtitle: subtitle && text(subtitle.title) ? [text(subtitle.title) as string] : undefined,
    author: list(attributes.creators).flatMap((entry) => person(entry) ?? []),
    editor: editors.flatMap((entry) => person(entry) ?? []),
    issued: issued ? { 'date-parts': [issued] } : undefined,
    'container-title': containerTitle ? [containerTitle] : undefined,
    type: crossrefType(isRecord(attributes.types) ? attributes.types : {}, publisher, doi.toLowerCase(), containerTitle),
    volume: text(container.volume),
    issue: text(container.issue),
    page: firstPage ? (lastPage ? `${firstPage}-${lastPage}` : firstPage) : undefined,
    publisher,
    URL: text(attributes.url),
    version: text(attributes.version),
  };
  return Object.fromEntries(
    Object.entries(work).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)),
  ) as CrossrefWork;
}

function worksOf(json: unknown): CrossrefWork[] {
  if (!isRecord(json) || !Array.isArray(json.data)) {
    throw new AppError('UPSTREAM_ERROR', { details: 'DataCite answered with an unexpected shape' });
  }
  return json.data.flatMap((item) => workFromDataCite(item) ?? []);
}

function url(path: string, query?: URLSearchParams): string {
  const base = `${config.DATACITE_BASE_URL.replace(/\/+$/, '')}${path}`;
  const params = new URLSearchParams(query);
  if (config.CROSSREF_MAILTO) params.set('mailto', config.CROSSREF_MAILTO);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** The DataCite record of a DOI, or undefined when DataCite has none (404); rejects with an AppError. */
export async function dataCiteWork(
  doi: string,
  options: { deadline: number; timeoutMs?: number },
): Promise<CrossrefWork | undefined> {
  const json = await fetchJson(url(`/dois/${encodeURIComponent(doi)}`), dataCitePace, { ...options, notFoundIsEmpty: true });
  if (json === undefined) return undefined;
  if (!isRecord(json) || !isRecord(json.data)) {
    throw new AppError('UPSTREAM_ERROR', { details: 'DataCite answered with an unexpected shape' });
  }
  return workFromDataCite(json.data);
}

/** DOIs per batched lookup (`GET /dois?ids=…`): DataCite answers up to its page size at once; 20 keep the URL short. */
export const DATACITE_DOIS_PER_LOOKUP = 20;

/**
 * The DataCite records of these DOIs (at most DATACITE_DOIS_PER_LOOKUP, none holding a comma, which
 * separates them), by lower-case DOI: one request (`GET /dois?ids=a,b,…`, DataCite's lookup of several
 * DOIs). A DOI DataCite does not hold is simply absent; rejects with an AppError when the lookup itself fails.
 */
export async function dataCiteWorks(
  dois: readonly string[],
  options: { deadline: number; timeoutMs?: number },
): Promise<Map<string, CrossrefWork>> {
  const params = new URLSearchParams({ ids: dois.join(','), 'page[size]': String(dois.length) });
  const works = worksOf(await fetchJson(url('/dois', params), dataCitePace, options));
  return new Map(works.map((work) => [work.DOI.toLowerCase(), work]));
}

/** The words of a text as a query term list: letters and digits only, so no character is an operator. */
function words(text: string, max: number): string {
  return normalizeText(text)
    .split(' ')
    .filter((word) => word.length > 1 || /\d/.test(word))
    .slice(0, max)
    .join(' ');
}

/**
 * The query for a paper the index found: its title's words in `titles.title`, its first author's family
 * name among the creators' names, and its year ±1 when known.
 */
export function paperQuery(record: ScholarRecord): string {
  const title = words(record.title.replace(/(?:…|\.\.\.)\s*$/, ''), 30);
  const family = words(record.authors[0]?.family ?? '', 4);
  const parts = [`titles.title:(${title})`];
  if (family) parts.push(`creators.name:(${family})`);
  if (record.year !== null) parts.push(`publicationYear:[${record.year - 1} TO ${record.year + 1}]`);
  return parts.join(' AND ');
}

/** The query for a free-text reference: its first 40 words, DataCite ranking the records that hold most of them. */
export function referenceQuery(reference: string): string {
  return words(reference, 40);
}

/** DataCite's candidates for a query (paperQuery, referenceQuery), best first by its ranking; rejects with an AppError. */
export async function searchDataCite(query: string, options: { deadline: number; timeoutMs?: number }): Promise<CrossrefWork[]> {
  if (!query) return [];
  const params = new URLSearchParams({ query, 'page[size]': String(PAGE_SIZE) });
  return worksOf(await fetchJson(url('/dois', params), dataCitePace, options));
}
