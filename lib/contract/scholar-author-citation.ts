/** The `data` of a successful POST /v1/alpha/scholar/author-citation (spec §2.6, docs/decisions.md §6). */
import * as z from 'zod/mini';
import { citationCountSchema, unavailableSchema } from './alpha-parts.js';

export const citingArticleSchema = z.strictObject({
  rank: z.int().check(z.describe('1-based position in the citing list')),
  title: z.string(),
  link: z.nullable(z.string()),
  snippet: z.nullable(z.string()),
  publication_info: z.nullable(z.string().check(z.describe('Authors, venue, year and site as Google Scholar summarises them'))),
  result_id: z.nullable(z.string().check(z.describe('Google Scholar id of the document (the q of a citation lookup)'))),
  cited_by: citationCountSchema,
});

export const citationSchema = z.strictObject({
  title: z.string().check(z.describe('Paper title')),
  link: z.nullable(z.string().check(z.describe("The paper's page at its publisher"))),
  authors: z.string().check(z.describe('Authors as one comma-separated text')),
  publication_date: z.string().check(z.describe('Publication date as Google Scholar gives it, e.g. "2006/11"')),
  journal: z.nullable(z.string()),
  volume: z.nullable(z.string()),
  issue: z.nullable(z.string()),
  pages: z.nullable(z.string()),
  publisher: z.nullable(z.string()),
  description: z.nullable(z.string().check(z.describe('The abstract excerpt Google Scholar shows'))),
  resources: z
    .array(z.strictObject({ title: z.string(), link: z.string(), file_format: z.nullable(z.string()) }))
    .check(z.describe('Other places to read the paper (PDF, HTML)')),
  total_citations: z.strictObject({
    ...citationCountSchema.shape,
    per_year: z
      .array(z.strictObject({ year: z.int(), citations: z.int() }))
      .check(z.describe('Citations per year, oldest first')),
  }),
  articles: z
    .array(citingArticleSchema)
    .check(z.describe('The first page of documents that cite the paper; empty when none or when they could not be fetched')),
});

export const responseSchema = z.strictObject({
  citations: z.nullable(citationSchema.check(z.describe('The paper; null when the upstream found no such citation'))),
  unavailable: unavailableSchema(['citations.articles']),
});

export type AuthorCitationData = z.output<typeof responseSchema>;
export type Citation = z.output<typeof citationSchema>;
export type CitingArticle = z.output<typeof citingArticleSchema>;
