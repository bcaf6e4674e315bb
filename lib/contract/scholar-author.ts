/** The `data` of a successful POST /v1/alpha/scholar/author (spec §2.5). */
import * as z from 'zod/mini';
import { citationCountSchema, interestSchema, pagingSchema } from './alpha-parts.js';

const metricSchema = z.strictObject({
  all: z.nullable(z.int().check(z.describe('Over the whole career'))),
  since: z.nullable(z.int().check(z.describe('Since `since_year`'))),
});

export const authorSchema = z.strictObject({
  name: z.string(),
  affiliations: z.nullable(z.string().check(z.describe('Institution'))),
  email: z.nullable(z.string().check(z.describe('Verified e-mail domain, e.g. "Verified email at harvard.edu"'))),
  website: z.nullable(z.string().check(z.describe('Home page'))),
  thumbnail: z.nullable(z.string().check(z.describe('Avatar image URL'))),
  interests: z.array(interestSchema),
});

export const articleSchema = z.strictObject({
  title: z.string(),
  link: z.nullable(z.string().check(z.describe("The article's Google Scholar page"))),
  citation_id: z.nullable(z.string().check(z.describe('The citation_id of /v1/alpha/scholar/author-citation'))),
  authors: z.nullable(z.string()),
  publication: z.nullable(z.string().check(z.describe('Venue, volume, pages and year as Google Scholar shows them'))),
  year: z.nullable(z.int()),
  cited_by: citationCountSchema,
});

export const citedBySchema = z.strictObject({
  citations: metricSchema.check(z.describe('Citations')),
  h_index: metricSchema.check(z.describe('h-index')),
  i10_index: metricSchema.check(z.describe('i10-index: publications with at least 10 citations')),
  since_year: z.nullable(z.int().check(z.describe('The year the `since` figures count from'))),
  graph: z.array(z.strictObject({ year: z.int(), citations: z.int() })).check(z.describe('Citations per year, oldest first')),
});

export const coAuthorSchema = z.strictObject({
  name: z.string(),
  author_id: z.nullable(z.string()),
  affiliations: z.nullable(z.string()),
  email: z.nullable(z.string()),
  link: z.nullable(z.string()),
  thumbnail: z.nullable(z.string()),
});

export const publicAccessSchema = z.strictObject({
  available: z.nullable(z.int().check(z.describe('Articles under a public-access mandate that are publicly available'))),
  not_available: z.nullable(z.int().check(z.describe('Articles under a mandate that are not'))),
  link: z.nullable(z.string().check(z.describe('The Google Scholar mandates page'))),
});

export const responseSchema = z.strictObject({
  author: z.nullable(authorSchema.check(z.describe('The author profile; null when the upstream gave none'))),
  articles: z.array(articleSchema).check(z.describe('This page of the articles, in the order asked for (`sort`)')),
  cited_by: z.nullable(citedBySchema.check(z.describe('Citation totals, h-index, i10-index and the yearly graph'))),
  co_authors: z.array(coAuthorSchema),
  public_access: z.nullable(publicAccessSchema),
  pagination: z.strictObject({
    ...pagingSchema.shape,
    page_size: z.int().check(z.describe('Articles per page (num)')),
  }),
});

export type AuthorData = z.output<typeof responseSchema>;
