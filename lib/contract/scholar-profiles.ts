/** The `data` of a successful POST /v1/alpha/scholar/profiles (spec §2.4, docs/decisions.md §5). */
import * as z from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { interestSchema } from './alpha-parts.js';

/** Profiles filled from their profile page by default, and at most (`enrich`): one paid search each. */
export const ENRICH_DEFAULT = 5;
export const ENRICH_MAX = 10;

/** The fields a profile gets only from its profile page: without it they hold their empty values. */
export const PAGE_FIELDS = ['affiliations', 'affiliation', 'email', 'cited_by', 'interests', 'thumbnail'] as const;

/**
 * Beside a profile whose page was not read: which fields are empty for that reason, and why. Its `cited_by`
 * 0 then means "not known", never "never cited" (the spec keeps `cited_by` an integer).
 */
export const unfilledSchema = z
  .strictObject({
    fields: z
      .array(z.enum(PAGE_FIELDS))
      .check(
        z.describe(
          'Fields left at their empty value (cited_by 0, affiliations "", email null, …) because the profile page was not read',
        ),
      ),
    reason: z
      .enum(['not_requested', 'budget', 'upstream_error'])
      .check(
        z.describe(
          '`not_requested`: the profile is beyond the `enrich` first ones of the page; `budget`: the search budget refused its page; `upstream_error`: its page could not be fetched',
        ),
      ),
    code: z.optional(
      z
        .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
        .check(z.describe('The error its page met, unless not requested')),
    ),
    details: z.string().check(z.describe('Why, in words, with how to get the page (a higher `enrich`, a retry)')),
  })
  .check(z.describe('Present only on a profile whose page was not read: what is missing and why'));

export const profileSchema = z.strictObject({
  title: z.string().check(z.describe('Scholar name (the spec table calls it title)')),
  name: z.string().check(z.describe('Scholar name again, under the key the upstream uses')),
  author_id: z.string().check(z.describe('Google Scholar author id: the author_id of /v1/alpha/scholar/author')),
  affiliations: z.string().check(z.describe('Institution ("" when the profile names none)')),
  affiliation: z.string().check(z.describe('Institution again, under the key a spec sample shows')),
  email: z.nullable(z.string().check(z.describe('Verified e-mail domain, e.g. "Verified email at imperial.ac.uk"'))),
  cited_by: z.int().check(z.describe('Total citation count (0 when the profile shows none)')),
  interests: z.array(interestSchema),
  link: z.nullable(z.string().check(z.describe('The Google Scholar profile page'))),
  thumbnail: z.nullable(z.string().check(z.describe('Avatar image URL'))),
  unfilled: z.optional(unfilledSchema),
});

export const responseSchema = z.strictObject({
  profiles: z.array(profileSchema),
});

export type ProfilesData = z.output<typeof responseSchema>;
export type Profile = z.output<typeof profileSchema>;
export type Unfilled = z.output<typeof unfilledSchema>;
