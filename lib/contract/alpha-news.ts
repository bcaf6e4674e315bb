/** The `data` of a successful POST /v1/alpha/news (spec §2.8). */
import * as z from 'zod/mini';
import { pagingSchema } from './alpha-parts.js';

export const newsItemSchema = z.strictObject({
  rank: z.int().check(z.describe('1-based position, continuing across pages (page 1 starts at 11)')),
  title: z.string().check(z.describe('Headline')),
  snippet: z.string().check(z.describe('Summary ("" when the upstream gave none)')),
  source: z.string().check(z.describe('Publisher name')),
  url: z.string().check(z.describe('The news page')),
  lastUpdated: z.string().check(z.describe('Publication time as the upstream gave it, relative ("2 hours ago") or absolute')),
  thumbnail: z.nullable(z.string()),
});

export const responseSchema = z.strictObject({
  news_results: z.array(newsItemSchema),
  pagination: pagingSchema,
});

export type NewsData = z.output<typeof responseSchema>;
