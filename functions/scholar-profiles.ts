/** POST /v1/alpha/scholar/profiles: Google Scholar author profiles (SerpApi `google_scholar_profiles`). */
import type * as z from 'zod/mini';
import type { ProfilesData } from '../lib/contract/scholar-profiles.js';
import { countMessage } from '../lib/envelope.js';
import { AppError } from '../lib/errors.js';
import { api } from '../lib/middleware/index.js';
import { reshapeProfile } from '../lib/reshape/scholar.js';
import { list } from '../lib/reshape/values.js';
import { body, searchTerms } from '../lib/schema.js';
import { explainDiscontinued } from '../lib/upstream/outcomes.js';

export const requestSchema = body({
  // No `country`: the upstream engine takes no country parameter (it has no `gl`), so one would do nothing.
  query: searchTerms('Author name, or a research tag such as label:machine_learning'),
});
export type ProfilesRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: ProfilesRequest) {
  return { mauthors: request.query };
}

export function reshapeProfiles(json: Record<string, unknown>): ProfilesData {
  return { profiles: list(json.profiles).map(reshapeProfile) };
}

/** The provider marks this engine discontinued: its failures must read as that, not as a passing fault. */
export const profilesDiscontinued = explainDiscontinued(
  'Google Scholar profile search',
  'Google Scholar now requires a login to search profiles',
);

/** A "no results" answer carries its `error` text; an answer with neither that nor profiles is a quiet failure. */
export function checkProfilesAnswer(json: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(json.profiles) || typeof json.error === 'string') return json;
  return profilesDiscontinued(
    new AppError('UPSTREAM_ERROR', { details: 'The search provider answered without a list of profiles' }),
  );
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const json = await upstream.search('scholarProfiles', toSerpApiParams(body)).catch(profilesDiscontinued);
  const data = reshapeProfiles(checkProfilesAnswer(json));
  return { data, message: countMessage(data.profiles.length, 'profile') };
});
