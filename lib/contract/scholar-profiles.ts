/** The `data` of a successful POST /v1/alpha/scholar/profiles (spec §2.4, docs/decisions.md §5). */
import * as z from 'zod/mini';
import { interestSchema } from './alpha-parts.js';

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
});

export const responseSchema = z.strictObject({
  profiles: z.array(profileSchema),
});

export type ProfilesData = z.output<typeof responseSchema>;
export type Profile = z.output<typeof profileSchema>;
