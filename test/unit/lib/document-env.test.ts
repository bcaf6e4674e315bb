/**
 * `npm run openapi` and `npm run client:types` build the document with placeholder credentials: they must
 * work in any shell the README leads to, including one that holds the secret ids of "Deployed mode, locally".
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.js';
import { settleDocumentEnvironment } from '../../../lib/local/document-env.js';

describe('the document writers’ environment', () => {
  it.each([
    ['an empty shell', {}],
    [
      'a shell with both secret ids',
      { SERPAPI_SECRET_ID: 'search-api/serpapi', CLIENT_KEYS_SECRET_ID: 'search-api/client-keys' },
    ],
    ['a shell with the upstream secret id only', { SERPAPI_SECRET_ID: 'search-api/serpapi' }],
    ['a shell with plain keys', { SERPAPI_API_KEY: 'k', API_KEYS: 'a,b' }],
  ])('is a valid configuration from %s', (_name, shell: Record<string, string | undefined>) => {
    const env = { ...shell };
    settleDocumentEnvironment(env);
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('keeps what the shell set', () => {
    const env: Record<string, string | undefined> = { SERPAPI_SECRET_ID: 's', API_KEYS: 'mine', POWERTOOLS_LOG_LEVEL: 'DEBUG' };
    settleDocumentEnvironment(env);
    expect(env).toMatchObject({ SERPAPI_SECRET_ID: 's', API_KEYS: 'mine', POWERTOOLS_LOG_LEVEL: 'DEBUG' });
    expect(env.SERPAPI_API_KEY).toBeUndefined();
    expect(env.CLIENT_KEYS_SECRET_ID).toBeUndefined();
  });
});
