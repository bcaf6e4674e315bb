/**
 * POST /v1/alpha/images: image search (SerpApi `google_images`). Pages are the upstream's own (`ijn`), of up
 * to 100 images; its answers carry no paging links, so a full page is what says that more may follow.
 */
import type * as z from 'zod/mini';
import type { ImagesData } from '../lib/contract/alpha-images.js';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { integer, list, textOrEmpty } from '../lib/reshape/values.js';
import { body, LAST_PAGE, location, oneOf, page, searchTerms } from '../lib/schema.js';

/** Each filter's public values, and what the upstream calls them. */
export const FILTERS = {
  size: { icon: 'i', small: 'qsvga', medium: 'm', large: 'l', xlarge: '4mp', xxlarge: '10mp' },
  color: {
    red: 'red',
    orange: 'orange',
    yellow: 'yellow',
    green: 'green',
    teal: 'teal',
    blue: 'blue',
    purple: 'purple',
    pink: 'pink',
    white: 'white',
    gray: 'gray',
    black: 'black',
    brown: 'brown',
    black_and_white: 'bw',
    transparent: 'trans',
  },
  type: { face: 'face', photo: 'photo', clipart: 'clipart', lineart: 'lineart', animated: 'animated' },
  license: {
    creative_commons: 'cl',
    commercial: 'ol',
    free_to_share: 'f',
    free_to_share_commercially: 'fc',
    free_to_modify: 'fm',
    free_to_modify_commercially: 'fmc',
  },
  aspect_ratio: { square: 's', tall: 't', wide: 'w', panoramic: 'xw' },
} as const;

function choice<Values extends Record<string, string>>(values: Values, description: string) {
  return oneOf(Object.keys(values) as [keyof Values & string, ...(keyof Values & string)[]], description);
}

/** Images in one page of the upstream's answer. */
export const IMAGES_PAGE_SIZE = 100;

export const requestSchema = body({
  q: searchTerms(),
  size: choice(FILTERS.size, 'Image size: icon, small (over 400×300), medium, large, xlarge (over 4 MP), xxlarge (over 10 MP)'),
  color: choice(
    FILTERS.color,
    'Colour: red, orange, yellow, green, teal, blue, purple, pink, white, gray, black, brown, black_and_white or transparent',
  ),
  type: choice(FILTERS.type, 'Image type: face, photo, clipart, lineart (line drawing) or animated'),
  license: choice(
    FILTERS.license,
    'Usage rights: creative_commons, commercial (commercial and other licences), free_to_share, free_to_share_commercially, free_to_modify or free_to_modify_commercially',
  ),
  aspect_ratio: choice(FILTERS.aspect_ratio, 'Aspect ratio: square, tall, wide or panoramic'),
  location: location(),
  page: page(),
});
export type ImagesRequest = z.output<typeof requestSchema>;

export function toSerpApiParams(request: ImagesRequest) {
  return {
    q: request.q,
    imgsz: request.size && FILTERS.size[request.size],
    image_color: request.color && FILTERS.color[request.color],
    image_type: request.type && FILTERS.type[request.type],
    licenses: request.license && FILTERS.license[request.license],
    imgar: request.aspect_ratio && FILTERS.aspect_ratio[request.aspect_ratio],
    location: request.location,
    ijn: request.page,
  };
}

export function reshapeImages(json: Record<string, unknown>, request: ImagesRequest): ImagesData {
  const images = list(json.images_results).slice(0, IMAGES_PAGE_SIZE);
  return {
    images_results: images.map((item) => ({
      title: textOrEmpty(item.title),
      image: textOrEmpty(item.thumbnail),
      original: textOrEmpty(item.original),
      source: textOrEmpty(item.source),
      link: textOrEmpty(item.link),
      original_width: integer(item.original_width),
      original_height: integer(item.original_height),
    })),
    pagination: imagesPaging(images.length, request.page),
  };
}

/** A full page means more may follow; `ijn` stops at page 99. */
export function imagesPaging(count: number, page: number) {
  const hasMore = count >= IMAGES_PAGE_SIZE && page < LAST_PAGE;
  return { current_page: page, next_page: hasMore ? page + 1 : null, has_more: hasMore };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeImages(await upstream.search('images', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.images_results.length) };
});
