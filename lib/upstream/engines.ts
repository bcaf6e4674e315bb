/**
 * The one table from this service's endpoints to the upstream's engines. Adding another provider means
 * another table like this one and a client beside serpapi.ts; handlers name endpoints, not vendors.
 */
export const SERPAPI_ENGINES = {
  webAlpha: 'google',
  // Google's AI overview when the search answer holds only a token for it (functions/web-search-alpha.ts).
  webAlphaAiOverview: 'google_ai_overview',
  webBravo: 'duckduckgo',
  webCharlie: 'bing',
  webDelta: 'baidu',
  news: 'google',
  images: 'google_images',
  trends: 'google_trends',
  scholar: 'google_scholar',
  scholarCite: 'google_scholar_cite',
  scholarAuthor: 'google_scholar_author',
} as const;

export type UpstreamEngine = keyof typeof SERPAPI_ENGINES;
