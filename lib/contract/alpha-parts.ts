/** Response pieces the alpha-services contracts share: paging, citation counts, research interests, partial failures. */
import * as z from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

export const pagingSchema = z.strictObject({
  current_page: z.int().check(z.describe('The page asked for, from 0')),
  next_page: z.nullable(
    z.int().check(z.describe('The page to ask for next; null when there is none (or it would pass page 99)')),
  ),
  has_more: z
    .boolean()
    .check(
      z.describe(
        'Whether a next page exists: the upstream reports one (images, whose answers carry no paging: this page is full)',
      ),
    ),
});

export const citationCountSchema = z.strictObject({
  count: z.nullable(z.int().check(z.describe('How many documents cite this one; null when the upstream gave no count'))),
  link: z.nullable(z.string().check(z.describe('The Google Scholar list of the citing documents'))),
  cites_id: z.nullable(z.string().check(z.describe('Google Scholar id of that list (its `cites` parameter)'))),
});

export const interestSchema = z.strictObject({
  title: z.string().check(z.describe('The research interest, e.g. "Computational chemistry"')),
  link: z.nullable(z.string().check(z.describe('Google Scholar profiles that share this interest'))),
});

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** One part of a response that could not be fetched while the rest could. */
export function unavailableSchema<const Part extends readonly [string, ...string[]]>(parts: Part) {
  return z
    .array(
      z.strictObject({
        part: z.enum(parts).check(z.describe('The field left empty because its upstream call failed')),
        code: z.enum(errorCodes).check(z.describe('The error code that call would have answered on its own')),
        details: z.string(),
      }),
    )
    .check(z.describe('Parts of the answer that could not be fetched; empty when the answer is complete'));
}
