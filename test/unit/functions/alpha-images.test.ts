import { describe, expect, it } from 'vitest';
import { FILTERS, requestSchema, reshapeImages, toSerpApiParams } from '../../../functions/alpha-images.js';
import { responseSchema } from '../../../lib/contract/alpha-images.js';
import { sample } from '../../../lib/local/samples.js';

const request = requestSchema.parse({ q: 'coffee' });

describe('images request', () => {
  it('maps every size to the upstream imgsz', () => {
    const sizes = Object.keys(FILTERS.size) as (keyof typeof FILTERS.size)[];
    expect(Object.fromEntries(sizes.map((size) => [size, toSerpApiParams({ ...request, size }).imgsz]))).toEqual({
      icon: 'i',
      small: 'qsvga',
      medium: 'm',
      large: 'l',
      xlarge: '4mp',
      xxlarge: '10mp',
    });
  });

  it('maps aspect ratios to s, t, w, xw and the special colours to bw and trans', () => {
    expect(FILTERS.aspect_ratio).toEqual({ square: 's', tall: 't', wide: 'w', panoramic: 'xw' });
    expect(toSerpApiParams({ ...request, color: 'black_and_white' }).image_color).toBe('bw');
    expect(toSerpApiParams({ ...request, color: 'transparent' }).image_color).toBe('trans');
    expect(toSerpApiParams({ ...request, color: 'teal' }).image_color).toBe('teal');
  });

  it('sends every filter under its upstream name, and page as ijn', () => {
    const all = requestSchema.parse({
      q: 'coffee',
      size: 'large',
      color: 'blue',
      type: 'lineart',
      license: 'creative_commons',
      aspect_ratio: 'wide',
      location: 'Paris, France',
      page: 2,
    });
    expect(toSerpApiParams(all)).toEqual({
      q: 'coffee',
      imgsz: 'l',
      image_color: 'blue',
      image_type: 'lineart',
      licenses: 'cl',
      imgar: 'w',
      location: 'Paris, France',
      ijn: 2,
    });
  });

  it('rejects an unknown filter value with a message that lists the allowed ones', () => {
    const result = requestSchema.safeParse({ q: 'coffee', size: 'huge' });
    expect(result.error?.issues[0]?.message).toBe('must be one of: icon, small, medium, large, xlarge, xxlarge');
    const license = requestSchema.safeParse({ q: 'coffee', license: 'free' });
    expect(license.error?.issues[0]?.message).toContain('creative_commons, commercial, free_to_share');
  });
});

describe('reshapeImages', () => {
  it('gives title, thumbnail as image, original, source, link and integer dimensions (constructed sample: no recorded answer holds these fields)', () => {
    const data = reshapeImages(sample('google_images'), request);
    expect(data.images_results).toHaveLength(5);
    expect(data.images_results[0]).toEqual({
      title: 'Cup of coffee on a wooden table',
      image: 'https://encrypted-tbn0.gstatic.com/images?q=tbn:ANd9GcQ0',
      original: 'https://images.example.invalid/full/0.jpg',
      source: 'en.wikipedia.org',
      link: 'https://en.wikipedia.org/wiki/Coffee',
      original_width: 1600,
      original_height: 1067,
    });
    // Five images: less than a page of 100, so no more follow (images answers carry no paging links).
    expect(data.pagination).toEqual({ current_page: 0, next_page: null, has_more: false });
    expect(() => responseSchema.parse(data)).not.toThrow();
  });

  it('still returns the contract shape when the upstream omits optional fields (constructed sample: no recorded answer holds these fields)', () => {
    const json = sample('google_images');
    const sparse = {
      images_results: (json.images_results as Record<string, unknown>[]).map((item) => ({ original: item.original })),
    };
    const data = reshapeImages(sparse, request);
    expect(data.images_results[0]).toEqual({
      title: '',
      image: '',
      original: 'https://images.example.invalid/full/0.jpg',
      source: '',
      link: '',
      original_width: null,
      original_height: null,
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(reshapeImages({}, request)).toEqual({
      images_results: [],
      pagination: { current_page: 0, next_page: null, has_more: false },
    });
  });

  it('reads dimensions given as text as integers', () => {
    const data = reshapeImages({ images_results: [{ original_width: '800', original_height: 600.0 }] }, request);
    expect(data.images_results[0]).toMatchObject({ original_width: 800, original_height: 600 });
  });
});
