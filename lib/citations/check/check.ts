/**
 * The reference check: each reference of a list to the record it describes, and what it says that the
 * record does not (match/reference-check.ts), with no guess and no false alarm a careful reader would not
 * raise. The sources, in order, each asked only for what the ones before did not settle:
 * 1. DOIs the references give (or arXiv identifiers, which are DOIs of arXiv's), looked up directly: Crossref
 *    twenty to a request and DataCite's repositories' DOIs at once, then DataCite for the rest
 *    (sources/doi-lookup.ts). A DOI is a claim: its record must carry the reference's title or authors, else
 *    the DOI is another work's (`doi_other_work`).
 * 2. Crossref's bibliographic query, for every reference without a DOI or whose DOI did not settle it.
 * 3. DataCite's search, for what Crossref did not find that names a repository, a preprint, data or software,
 *    or no venue at all, in the time the request has left at DataCite's pace.
 * 4. Only when asked ("scholar": true), one Google Scholar search per reference still unconfirmed, paid,
 *    planned at once (the budget refuses the whole request before any paid search when it cannot cover
 *    them) and never for a reference a registry confirmed.
 * The registry lookups are planned before any is sent (plan.ts): a list whose lookups cannot start in the
 * request's time at the sources' pace is refused whole, saying how many fit. Usable outside the HTTP
 * handler (the jobs that check longer lists call `checkReferences` with their own deadline).
 */
import type { Ask } from '../../budget/budget.js';
import { mapSettled } from '../../concurrency.js';
import { config } from '../../config.js';
import type { CheckSource, Verdict } from '../../contract/cite-check.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import {
  aboutCitation,
  type CheckIssue,
  citableTitles,
  compareWithRecord,
  describes,
  type Identification,
  isNoticeWork,
  issue,
  ownDoiRecord,
  type RecordUpdate,
  recordAuthors,
  recordIssues,
  updatesOf,
  weight,
} from '../match/reference-check.js';
import { bibliographicQuery, readReference } from '../match/reference-match.js';
import type { CitedReference } from '../model/cited.js';
import { parseScholarSummary, type ScholarRecord } from '../model/scholar.js';
import { agencyOf, type CrossrefWork, workYear } from '../model/work.js';
import { crossrefPace, searchReference } from '../sources/crossref.js';
import { arxivDoi, dataCitePace, referenceQuery, searchDataCite } from '../sources/datacite.js';
import { crossrefDoiRequests, type DoiOutcome, lookUpDois } from '../sources/doi-lookup.js';
import { startsTakeMs, startsWithin } from './plan.js';

/** Google Scholar, as the check may ask it: through the paid path, its budget and its answer cache. */
export interface ScholarAccess {
  /** The most paid searches the check makes from now on: the budget reserves them all at the first. */
  plan(searches: number, ask: Ask): void;
  /** One Google Scholar search; rejects with the budget's refusal or the upstream's failure. */
  search(query: string): Promise<Record<string, unknown>>;
}

export interface CheckOptions {
  /** Epoch ms by which every lookup must be over (the request's deadline, or a job's). */
  deadline: number;
  /** Only with "scholar": true; absent, Google Scholar is never asked. */
  scholar?: ScholarAccess;
  /** The clock (tests give their own): the year a reference may not pass, and the plan's "now". */
  now?: () => number;
  /** The request field that holds the list, named in a refusal ("references" or "bibliography"). */
  field?: string;
}

/** One reference checked: its verdict, what is wrong, and the record it describes. */
export interface CheckedReference {
  verdict: Exclude<Verdict, 'unreadable'>;
  issues: CheckIssue[];
  /** The record the reference describes, or none. */
  work: CrossrefWork | null;
  /** The index's own record, when Google Scholar found the work (no DOI registry has it). */
  scholar?: { id: string; record: ScholarRecord; link: string | null };
  source: CheckSource | null;
  doi: string | null;
  updates: RecordUpdate[];
  message: string;
  /**
   * Not found with a lookup that failed or was never sent (its time ran out before its turn at a source's
   * pace): asked again later, it may be found. A job asks such a reference again (lib/jobs/kinds.ts).
   */
  incomplete?: true;
}

/** Time kept, after the last registry lookup starts, for it to answer, and for the answer to be written. */
const ANSWER_MS = 1_000;
/** Time kept for Google Scholar's searches when they are asked for. */
export const SCHOLAR_MS = 6_000;
/** The least time a Scholar search is started with. */
const SCHOLAR_MIN_MS = 2_000;
/** Candidates of one Scholar search: the work, when the index has it, is nearly always among the first. */
const SCHOLAR_RESULTS = 5;

/** How a reference names a record DataCite holds (a repository, data, software, a preprint) or names no venue. */
const DATACITE_TEXT =
  /\b(?:arxiv|zenodo|dryad|figshare|osf|pangaea|dataverse|gbif|data ?sets?|data from|data repository|software|preprint|biorxiv|medrxiv)\b/i;
const NAMES_VENUE =
  /\b(?:journal|j\.|proc(?:eedings)?|conference|conf|symposium|workshop|transactions|trans|letters|review|annals|bulletin|press|publish\w*|vol|volume|pp|in:)|\d+\s*\(\s*\d+\s*\)|\d+\s*[-–]\s*\d+/i;

/** Per reference, what the stages learn. */
interface State {
  ref: CitedReference;
  claimed?: string;
  doiIssues: CheckIssue[];
  /** The record the reference's own DOI names, when it is another work's. */
  otherWork?: CrossrefWork;
  found?: { work: CrossrefWork; issues: CheckIssue[]; source: CheckSource; scholar?: CheckedReference['scholar'] };
  tied?: string[];
  searchCrossref: boolean;
  looked: Set<string>;
  unasked: string[];
  failures: string[];
  /** A lookup it needed was never sent: its turn at a source's pace came after the deadline. */
  unsent?: true;
}

function failureOf(reason: unknown): string {
  if (reason instanceof AppError) return reason.details;
  logger.error('reference check lookup failed unexpectedly', { error: reason as Error });
  return 'an unexpected error';
}

/** Whether the reference states more than a DOI: something a search can find it by. */
function hasText(ref: CitedReference): boolean {
  return ref.fields?.title !== undefined || readReference(ref.text).words.filter((word) => !/^\d+$/.test(word)).length >= 3;
}

/** The record a reference describes among candidates: the one it gets least wrong; two different DOIs tied, none. */
function choose(
  ref: CitedReference,
  works: readonly CrossrefWork[],
  currentYear: number,
  exclude: string | undefined,
  recordAuthorsCut = false,
): { best?: { id: Identification; issues: CheckIssue[] }; tied?: string[] } {
  const seen = new Set<string>();
  const judged = works.flatMap((work) => {
    const doi = work.DOI.toLowerCase();
    if (doi === exclude || seen.has(doi)) return [];
    seen.add(doi);
    const id = describes(ref, work);
    if (!id) return [];
    const preprint = work.type === 'posted-content' ? 1 : 0;
    return [{ id, issues: compareWithRecord(id, { currentYear, recordAuthorsCut }), preprint }];
  });
  judged.sort((a, b) => weight(a.issues) - weight(b.issues) || b.id.score - a.id.score || a.preprint - b.preprint);
  const [best, next] = judged;
  if (!best) return {};
  const tie =
    next &&
    weight(next.issues) === weight(best.issues) &&
    Math.abs(next.id.score - best.id.score) < 0.05 &&
    next.preprint === best.preprint;
  if (tie)
    return {
      tied: judged.filter((one) => weight(one.issues) === weight(best.issues)).map((one) => one.id.work.DOI.toLowerCase()),
    };
  return { best };
}

/** "“Title” (Authors, Year)": a record as a message names it. */
function named(work: CrossrefWork): string {
  const year = workYear(work);
  return `“${citableTitles(work)[0] ?? 'an untitled work'}” (${[recordAuthors(work), year].filter(Boolean).join(', ')})`;
}

/**
 * The plan: every Crossref request the list surely needs (its DOI batches, one query per reference with text
 * and no DOI) must start in the request's time, or the list is refused. A reference whose DOI does not settle
 * it needs a query too, but which do is known only once the DOIs have answered: those queries get the time
 * left then (crossrefFallbacks), so a list of references with DOIs is never refused for searches it will
 * mostly not make.
 */
function planCrossref(states: readonly State[], options: CheckOptions, now: number): void {
  const dois = states.flatMap((state) => (state.claimed ? [state.claimed] : []));
  const requests = crossrefDoiRequests(dois) + states.filter((state) => state.searchCrossref).length;
  const available = options.deadline - now - config.CROSSREF_TIMEOUT_MS - ANSWER_MS - (options.scholar ? SCHOLAR_MS : 0);
  const paused = Math.max(0, crossrefPace.pausedUntil - now);
  const needs = paused + startsTakeMs(requests, crossrefPace.rate);
  if (needs <= available) return;
  const perReference = requests / Math.max(1, states.length);
  const fit = Math.max(0, Math.floor(startsWithin(available - paused, crossrefPace.rate) / Math.max(1, perReference)));
  const field = options.field ?? 'references';
  throw new AppError('INVALID_REQUEST', {
    details: `${field}: ${states.length} references need up to ${requests} Crossref requests, which at this deployment's pace (${crossrefPace.rate} a second${paused > 0 ? `, after a pause Crossref asked for` : ''}) take ${Math.ceil(needs / 1000)} s to start, more than this request's time allows${options.scholar ? ' with Google Scholar' : ''}: send at most ${fit} references a request${options.scholar ? ', or leave "scholar" out' : ''}`,
  });
}

/**
 * Each reference checked, in order. Rejects only for the list as a whole: a plan that does not fit (400) or
 * Google Scholar's budget refusal (429); a failed lookup costs its references, which say so.
 */
export async function checkReferences(refs: readonly CitedReference[], options: CheckOptions): Promise<CheckedReference[]> {
  const now = options.now ?? Date.now;
  const currentYear = new Date(now()).getUTCFullYear();
  const states: State[] = refs.map((ref) => {
    const claimed = ref.doi ?? (ref.arxiv ? arxivDoi(ref.arxiv) : undefined);
    return {
      ref,
      ...(claimed ? { claimed } : {}),
      doiIssues: [],
      searchCrossref: !claimed && hasText(ref),
      looked: new Set<string>(),
      unasked: [],
      failures: [],
    };
  });
  planCrossref(states, options, now());
  const registryDeadline = options.deadline - (options.scholar ? SCHOLAR_MS : 0);

  // 1. The DOIs the references give, and beside them (asked after them, at the same pace) Crossref's
  // bibliographic query for the references that give none: those need no DOI's answer to be sent.
  const claimed = [...new Set(states.flatMap((state) => (state.claimed ? [state.claimed] : [])))];
  const doiLookups: Promise<Map<string, DoiOutcome>> =
    claimed.length > 0
      ? lookUpDois(claimed, {
          deadline: registryDeadline,
          concurrency: config.CROSSREF_CONCURRENCY,
          crossrefMissesToDataCite: true,
        })
      : Promise.resolve(new Map());
  const planned = states.filter((state) => state.searchCrossref);
  const plannedSearches = searchCrossref(planned, registryDeadline);
  const byDoi = await doiLookups;
  for (const state of states) {
    if (!state.claimed) continue;
    const outcome = byDoi.get(state.claimed);
    // A source is "looked in" only when it answered: a failed lookup never reads as "not in" it.
    if (outcome && !('failed' in outcome)) state.looked.add('Crossref').add('DataCite');
    if (outcome && 'work' in outcome) claimDoi(state, outcome.work, currentYear);
    else if (outcome && 'absent' in outcome) {
      // A DOI the reference gives is a claim; one made here from an arXiv identifier is only a way to look.
      if (state.ref.doi) {
        state.doiIssues.push(
          issue('doi_unknown', state.claimed, null, `No registry asked (Crossref, DataCite) knows the DOI ${state.claimed}.`),
        );
      }
      state.searchCrossref = hasText(state.ref);
    } else {
      state.failures.push(
        `the DOI could not be looked up (${failureOf(outcome && 'failed' in outcome ? outcome.failed : undefined)})`,
      );
      state.searchCrossref = hasText(state.ref);
    }
  }

  // 2. Crossref's bibliographic query: the planned ones (sent above), then those DOIs left to it, in the time left.
  const fallbacks = crossrefQueries(states, registryDeadline, now()).filter((state) => !planned.includes(state));
  const forCrossref = [...planned, ...fallbacks];
  const searched = [...(await plannedSearches), ...(await searchCrossref(fallbacks, registryDeadline))];
  searched.forEach((outcome, i) => {
    const state = forCrossref[i] as State;
    if (outcome.status === 'rejected') {
      state.failures.push(`Crossref: ${failureOf(outcome.reason)}`);
      return;
    }
    state.looked.add('Crossref');
    settle(state, choose(state.ref, outcome.value, currentYear, state.otherWork?.DOI.toLowerCase()), 'crossref');
  });

  // 3. DataCite's search, in the time left at its pace.
  const unsettled = states.filter((state) => !state.found && !state.tied && hasText(state.ref));
  const forDataCite = unsettled.filter((state) => DATACITE_TEXT.test(state.ref.text) || !NAMES_VENUE.test(state.ref.text));
  for (const state of unsettled.filter((one) => !forDataCite.includes(one) && !one.claimed)) {
    state.unasked.push(
      'DataCite was not asked: the reference names a journal or proceedings, and DataCite holds preprints, data and software',
    );
  }
  const dataCiteTime =
    registryDeadline - now() - config.CROSSREF_TIMEOUT_MS - ANSWER_MS - Math.max(0, dataCitePace.pausedUntil - now());
  const fitting = Math.min(forDataCite.length, startsWithin(dataCiteTime, dataCitePace.rate));
  for (const state of forDataCite.slice(fitting)) {
    state.unasked.push(
      `DataCite was not asked: this request's time did not reach its turn at DataCite's pace (${dataCitePace.rate} a second)`,
    );
    state.unsent = true;
  }
  const askedDataCite = forDataCite.slice(0, fitting);
  const fromDataCite = await mapSettled(askedDataCite, config.CROSSREF_CONCURRENCY, (state) =>
    searchDataCite(referenceQuery(bibliographicQuery(state.ref.text)), { deadline: registryDeadline }),
  );
  fromDataCite.forEach((outcome, i) => {
    const state = askedDataCite[i] as State;
    if (outcome.status === 'rejected') {
      state.failures.push(`DataCite: ${failureOf(outcome.reason)}`);
      return;
    }
    state.looked.add('DataCite');
    settle(state, choose(state.ref, outcome.value, currentYear, state.otherWork?.DOI.toLowerCase()), 'datacite');
  });

  // 4. Google Scholar, only when asked, only for what no registry confirmed.
  if (options.scholar) await askScholar(states, options.scholar, options.deadline, now, currentYear);

  return states.map((state) => conclude(state, Boolean(options.scholar)));
}

/** Crossref's bibliographic query for each reference's text, at most CROSSREF_CONCURRENCY of this request's in flight. */
function searchCrossref(states: readonly State[], deadline: number) {
  return mapSettled(states, config.CROSSREF_CONCURRENCY, (state) =>
    searchReference(bibliographicQuery(state.ref.text), { deadline }),
  );
}

/**
 * The references Crossref's bibliographic query is sent for: every one the plan counted (no DOI), then those
 * whose DOI did not settle them, as many as can start before `deadline` at Crossref's pace; any other says
 * Crossref's search was not asked, and why (its DOI's error stands).
 */
function crossrefQueries(states: readonly State[], deadline: number, now: number): State[] {
  const wanted = states.filter((state) => state.searchCrossref);
  const planned = wanted.filter((state) => !state.claimed);
  const fallbacks = wanted.filter((state) => state.claimed);
  const time = deadline - now - config.CROSSREF_TIMEOUT_MS - ANSWER_MS - Math.max(0, crossrefPace.pausedUntil - now);
  const fitting = Math.max(0, Math.min(fallbacks.length, startsWithin(time, crossrefPace.rate) - planned.length));
  for (const state of fallbacks.slice(fitting)) {
    state.unasked.push(
      `Crossref's search was not asked: this request's time did not reach its turn at Crossref's pace (${crossrefPace.rate} a second)`,
    );
    state.unsent = true;
  }
  return [...planned, ...fallbacks.slice(0, fitting)];
}

/** The reference against the record its own DOI names. */
function claimDoi(state: State, work: CrossrefWork, currentYear: number): void {
  const source = agencyOf(work);
  const own = ownDoiRecord(state.ref, work);
  if ('read' in own) {
    state.found = { work, issues: compareWithRecord(own.read, { currentYear }), source };
    return;
  }
  if ('unread' in own) {
    // A reference that says nothing its DOI's record could contradict (a DOI and an author): the DOI decides.
    state.found = { work, issues: recordIssues(work), source };
    return;
  }
  state.otherWork = work;
  state.doiIssues.push(
    issue(
      'doi_other_work',
      state.claimed ?? null,
      `${work.DOI.toLowerCase()}: ${named(work)}`,
      `The DOI ${state.claimed} is the record of ${named(work)}${isNoticeWork(work) ? ', a notice about a work' : ''}, not of the work this reference describes.`,
    ),
  );
  state.searchCrossref = hasText(state.ref);
}

/** What a search found for the reference: its record, or a tie; a DOI it gave that is not its record's, an error. */
function settle(
  state: State,
  chosen: ReturnType<typeof choose>,
  source: CheckSource,
  scholar?: CheckedReference['scholar'],
): void {
  if (chosen.tied) {
    state.tied = chosen.tied;
    return;
  }
  if (!chosen.best) return;
  state.found = { work: chosen.best.id.work, issues: chosen.best.issues, source, ...(scholar ? { scholar } : {}) };
  const own = chosen.best.id.work.DOI.toLowerCase();
  if (!state.claimed || scholar) return;
  const said = state.doiIssues[0];
  if (said) {
    state.doiIssues[0] = {
      ...said,
      message: `${said.message} The reference describes ${named(chosen.best.id.work)}, DOI ${own}.`,
    };
  } else if (own !== state.claimed && state.ref.doi) {
    state.doiIssues.push(
      issue('doi_differs', state.claimed, own, `The reference gives the DOI ${state.claimed}; the work it describes has ${own}.`),
    );
  }
}

/** The index's results of one search, as records in a work's shape (no DOI; their author lists may be cut). */
function scholarResults(
  json: Record<string, unknown>,
): { work: CrossrefWork; record: ScholarRecord; id: string; link: string | null }[] {
  const results = Array.isArray(json.organic_results) ? (json.organic_results as Record<string, unknown>[]) : [];
  return results.slice(0, SCHOLAR_RESULTS).flatMap((result, i) => {
    const title = typeof result.title === 'string' ? result.title : '';
    if (!title) return [];
    const info = (result.publication_info ?? {}) as { summary?: unknown };
    const record = parseScholarSummary(title, typeof info.summary === 'string' ? info.summary : null);
    const id = typeof result.result_id === 'string' ? result.result_id : `result-${i + 1}`;
    const venue = record.venue?.replace(/\s*(?:…|\.\.\.)\s*$/, '').replace(/^\s*(?:…|\.\.\.)\s*/, '');
    const work: CrossrefWork = {
      DOI: `scholar:${id}`,
      title: [title],
      author: record.authors.map((author) =>
        author.organisation ? { name: author.family } : { given: author.given, family: author.family },
      ),
      ...(record.year !== null ? { issued: { 'date-parts': [[record.year]] } } : {}),
      ...(venue ? { 'container-title': [venue] } : {}),
      type: /arxiv|biorxiv|medrxiv|preprint|ssrn/i.test(`${record.venue ?? ''} ${record.site ?? ''}`)
        ? 'posted-content'
        : 'journal-article',
    };
    return [{ work, record, id, link: typeof result.link === 'string' ? result.link : null }];
  });
}

async function askScholar(
  states: readonly State[],
  scholar: ScholarAccess,
  deadline: number,
  now: () => number,
  currentYear: number,
): Promise<void> {
  const unconfirmed = states.filter((state) => !state.found && hasText(state.ref));
  if (unconfirmed.length === 0) return;
  if (deadline - now() < SCHOLAR_MIN_MS) {
    for (const state of unconfirmed) {
      state.unasked.push('Google Scholar was not asked: the registries took this request’s time');
      state.unsent = true;
    }
    return;
  }
  scholar.plan(unconfirmed.length, {
    why: `one Google Scholar search for each of the ${unconfirmed.length} references no registry confirmed`,
    less: (left) =>
      `leave "scholar" out (registries only, free)${left !== undefined && left > 0 ? `, or check at most ${left} references no registry has` : ''}`,
  });
  const outcomes = await mapSettled(unconfirmed, unconfirmed.length, (state) =>
    scholar.search(state.ref.fields?.title ?? bibliographicQuery(state.ref.text)),
  );
  // The budget refuses the whole request before any paid search: that refusal is the request's.
  const refusal = outcomes.find(
    (outcome): outcome is PromiseRejectedResult =>
      outcome.status === 'rejected' && outcome.reason instanceof AppError && /^BUDGET_/.test(outcome.reason.code),
  );
  if (refusal) throw refusal.reason;
  outcomes.forEach((outcome, i) => {
    const state = unconfirmed[i] as State;
    if (outcome.status === 'rejected') {
      state.failures.push(`Google Scholar: ${failureOf(outcome.reason)}`);
      return;
    }
    state.looked.add('Google Scholar');
    const results = scholarResults(outcome.value);
    const chosen = choose(
      state.ref,
      results.map((result) => result.work),
      currentYear,
      undefined,
      true,
    );
    const picked = chosen.best ? results.find((result) => result.work === chosen.best?.id.work) : undefined;
    delete state.tied;
    settle(state, chosen, 'scholar', picked ? { id: picked.id, record: picked.record, link: picked.link } : undefined);
  });
}

const demo = () => config.DEMO_REPLAY === 'true';

/** Where the check looked and did not find the work: the sentence a `not_found` carries. */
function notFoundMessage(state: State, scholarAsked: boolean): string {
  if (demo()) {
    return 'The demo holds no recording of the work this reference names: it replays a few recorded Crossref and DataCite answers; with network access the service looks it up in both (and in Google Scholar with "scholar": true).';
  }
  const looked = [...state.looked].filter((source) => source !== 'Google Scholar' || scholarAsked);
  const failed = state.failures.join('; ');
  const parts =
    looked.length > 0
      ? [`Not in ${looked.join(' or ')}`, ...(failed ? [`not all could be asked: ${failed}`] : [])]
      : [failed ? `Not confirmed: ${failed}` : 'Not looked up'];
  parts.push(...state.unasked);
  if (!scholarAsked) parts.push('Google Scholar was not asked: set "scholar": true to search it (paid)');
  return `${parts.join('; ')}. A work no source holds is not thereby fabricated: many real works have no DOI.`;
}

function conclude(state: State, scholarAsked: boolean): CheckedReference {
  const found = state.found;
  if (found) {
    const issues = [...state.doiIssues, ...found.issues];
    const work = found.work;
    const retracted = issues.some((one) => one.rule === 'retracted');
    const wrong = issues.filter((one) => aboutCitation(one) && one.severity !== 'info');
    const verdict: CheckedReference['verdict'] = retracted ? 'retracted' : wrong.length > 0 ? 'mismatch' : 'verified';
    const where = found.source === 'scholar' ? 'Google Scholar' : found.source === 'datacite' ? 'DataCite' : 'Crossref';
    const message =
      verdict === 'verified'
        ? `Agrees with its record in ${where}${issues.length > 0 ? ` (${issues.map((one) => one.rule).join(', ')})` : ''}.`
        : verdict === 'retracted'
          ? `${issues.find((one) => one.rule === 'retracted')?.message ?? 'The work is retracted.'}${wrong.length > 0 ? ` The reference also differs from its record: ${wrong.map((one) => one.field).join(', ')}.` : ''}`
          : `Differs from its record in ${where}: ${[...new Set(wrong.map((one) => one.field))].join(', ')}. ${wrong[0]?.message ?? ''}`.trim();
    return {
      verdict,
      issues,
      work: found.source === 'scholar' ? null : work,
      ...(found.scholar ? { scholar: found.scholar } : {}),
      source: found.source,
      doi: found.source === 'scholar' ? null : work.DOI.toLowerCase(),
      updates: found.source === 'scholar' ? [] : updatesOf(work),
      message,
    };
  }
  if (state.tied) {
    return {
      verdict: 'ambiguous',
      issues: state.doiIssues,
      work: null,
      source: null,
      doi: null,
      updates: [],
      message: `Several records fit this reference equally (${state.tied.filter((doi) => !doi.startsWith('scholar:')).join(', ') || 'Google Scholar results'}): nothing in it tells them apart.`,
    };
  }
  const other = state.doiIssues.find((one) => one.rule === 'doi_other_work');
  return {
    verdict: other ? 'mismatch' : 'not_found',
    issues: state.doiIssues,
    work: null,
    source: null,
    doi: null,
    updates: [],
    message: other ? `${other.message} ${notFoundMessage(state, scholarAsked)}` : notFoundMessage(state, scholarAsked),
    ...(state.failures.length > 0 || state.unsent ? { incomplete: true as const } : {}),
  };
}
