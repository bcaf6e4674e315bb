/** The `data` of a successful POST /v1/alpha/images (spec §2.9). */
import * as z from 'zod/mini';
import { pagingSchema } from './alpha-parts.js';

export const imageSchema = z.strictObject({
  title: z.string().check(z.describe('Image title')),
  image: z.string().check(z.describe('Thumbnail URL')),
  original: z.string().check(z.describe('Original image URL')),
  source: z.string().check(z.describe('Source site')),
  link: z.string().check(z.describe('The page that holds the image')),
  original_width: z.nullable(z.int().check(z.describe('Width of the original in pixels; null when the upstream did not say'))),
  original_height: z.nullable(z.int().check(z.describe('Height of the original in pixels; null when the upstream did not say'))),
});

export const responseSchema = z.strictObject({
  images_results: z.array(imageSchema),
  pagination: pagingSchema,
});

export type ImagesData = z.output<typeof responseSchema>;
