/**
 * The environment for building the OpenAPI document outside the service (`npm run openapi`,
 * `npm run client:types`): importing the handlers reads the service's configuration, which the document
 * needs none of. Placeholders fill a credential only when neither of its two sources is set, since
 * lib/config.ts refuses both at once: a shell that holds a secret id (as in "Deployed mode, locally") must
 * not make the writers fail.
 */
export function settleDocumentEnvironment(env: Record<string, string | undefined> = process.env): void {
  // A key of SerpApi's form (lib/config.ts refuses another for SerpApi), never sent anywhere.
  if (!env.SERPAPI_API_KEY && !env.SERPAPI_SECRET_ID) env.SERPAPI_API_KEY = '0'.repeat(64);
  if (!env.API_KEYS && !env.CLIENT_KEYS_SECRET_ID) env.API_KEYS = 'unused-by-the-document';
  // Nothing here serves a request: only warnings are worth printing, and the plan's numbers (the budget's
  // background read of SerpApi's Account API, started when the middleware loads) are not wanted.
  env.POWERTOOLS_LOG_LEVEL ||= 'WARN';
  env.ACCOUNT_API_TTL_SECONDS = '0';
  // Nothing here calls the upstream: a plain key of the shell's that is not of SerpApi's form (a test's, a
  // placeholder) must not stop the writers, as lib/config.ts would for SerpApi itself.
  env.SERPAPI_BASE_URL ||= 'http://127.0.0.1:9';
}
