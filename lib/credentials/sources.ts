/**
 * Where the service's credentials and searches come from, in the words the start banner of `npm start`
 * and the functions' `credential sources` log line share. No configuration is read here: the banner
 * runs before the configuration is settled.
 */

/** SerpApi's own address, the upstream when SERPAPI_BASE_URL is unset. */
export const SERPAPI_URL = 'https://serpapi.com';

/** Whether this base URL is the real SerpApi, where every search is paid for, rather than a stand-in. */
export function isRealSerpApi(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'serpapi.com' || host.endsWith('.serpapi.com');
}
