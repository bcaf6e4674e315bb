/**
 * POST /v1/alpha/scholar/profiles: scholar profiles found through the scholarly search. SerpApi retired
 * its profile search (`google_scholar_profiles`) in 2025, when Google Scholar put author search behind a
 * login, so authors are discovered from the author links of `google_scholar` results and each profile on
 * the page is filled from `google_scholar_author` (one paid call each, `enrich` of them at most).
 */
import * as z from 'zod/mini';
import { ENRICH_DEFAULT, ENRICH_MAX, type Profile, type ProfilesData } from '../lib/contract/scholar-profiles.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import {
  type DiscoveredAuthor,
  discoverAuthors,
  profileFromAuthorPage,
  profileFromDiscovery,
  unfilled,
} from '../lib/reshape/scholar.js';
import { body, integer, page, searchTerms } from '../lib/schema.js';
import { mostInformative, settle } from '../lib/upstream/outcomes.js';

/** Results read to discover authors: google_scholar's largest page, so one paid call finds the most. */
export const DISCOVERY_RESULTS = 20;

export const requestSchema = body({
  query: searchTerms(
    'Author name (searched as author:"…"), or a research tag such as label:machine_learning (searched as its words)',
  ),
  // Accepted because the spec lists it; neither scholarly engine takes a country (they have no `gl`).
  country: z.optional(
    z
      .string({ error: 'must be a string' })
      .check(
        z.regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code, such as us or gb' }),
        z.describe(
          'Two-letter country code (any letter case). Accepted for compatibility; it has no effect: the scholarly index takes no country',
        ),
      ),
  ),
  num: integer({ min: 1, max: 20, default: 10, description: 'Profiles per page, from the authors the search discovered' }),
  page: page(),
  enrich: integer({
    min: 0,
    max: ENRICH_MAX,
    default: ENRICH_DEFAULT,
    description: `How many of the page's profiles, from the top, are filled from their profile page (affiliation, citations, interests): one paid upstream call each, on top of the one search call. The others carry only name, author_id and link, with the empty values. At most ${ENRICH_MAX}`,
  }),
});
export type ProfilesRequest = z.output<typeof requestSchema>;

const TAG = /^label:(\S+)$/i;

/** The tag's words for a `label:` query, else null: the query is a name. */
export function researchTag(query: string): string | null {
  const tag = TAG.exec(query)?.[1];
  return tag ? tag.replace(/_/g, ' ') : null;
}

/**
 * The discovery search. A name goes through Google Scholar's `author:` operator (quoted, so that all its
 * words must match one author); a research tag (`label:` works only in the retired profile search) is
 * searched as plain words, and the authors of the papers found are the ones working on it.
 */
export function toSerpApiParams(request: ProfilesRequest) {
  const tag = researchTag(request.query);
  const name = request.query.replace(/"/g, '');
  return { q: tag ?? `author:"${name}"`, num: DISCOVERY_RESULTS };
}

/** The authors of this request's page, in rank order. */
export function pageOfAuthors(authors: readonly DiscoveredAuthor[], request: ProfilesRequest): DiscoveredAuthor[] {
  const start = request.page * request.num;
  return authors.slice(start, start + request.num);
}

/** How to ask for fewer paid searches, given how many are left: fewer profile pages. */
export function askForLess(left: number | undefined): string | undefined {
  const enrich = left === undefined ? 0 : Math.max(0, left - 1);
  return `"enrich": ${enrich} makes ${enrich + 1} (the search and ${enrich} profile pages; the other profiles carry name, author_id and link only)`;
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  // The discovery search and up to `enrich` profile pages, reserved at once (docs/decisions.md §8).
  upstream.plan(1 + body.enrich, { why: `the search and up to ${body.enrich} profile pages ("enrich")`, less: askForLess });
  const found = await upstream.search('scholar', toSerpApiParams(body));
  const authors = discoverAuthors(found, researchTag(body.query) === null ? body.query : null);
  const onPage = pageOfAuthors(authors, body);
  const toEnrich = onPage.slice(0, body.enrich);
  // Calls the upstream fails are kept per profile; anything else thrown is a bug and fails the request.
  const pages = await Promise.all(
    toEnrich.map((author) => settle(upstream.search('scholarAuthor', { author_id: author.author_id }))),
  );
  const failures = pages.flatMap((outcome) => (outcome.ok ? [] : [outcome.error]));
  // Every enrichment failing says something is wrong with the upstream (or the budget): say that, not a
  // page of half-empty profiles. Some failing leaves those profiles with what the search told, saying so.
  const [firstFailure, ...otherFailures] = failures;
  if (firstFailure && failures.length === pages.length) throw mostInformative([firstFailure, ...otherFailures]);
  const profiles: Profile[] = onPage.map((author, i) => {
    const outcome = pages[i];
    if (outcome?.ok) return profileFromAuthorPage(author, outcome.value);
    return { ...profileFromDiscovery(author), unfilled: unfilled(outcome?.error, body.enrich) };
  });
  const data: ProfilesData = { profiles };
  const unfilledCount = failures.length > 0 ? `; ${failures.length} could not be filled from their profile page` : '';
  const message =
    profiles.length === 0
      ? 'No results'
      : `${countMessage(profiles.length, 'profile')} of ${authors.length} authors found${unfilledCount}`;
  return { data, message };
});
