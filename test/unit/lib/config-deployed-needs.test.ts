/**
 * The variables a function gets from what its route needs (lib/routes.ts, infra/api-function.ts): a free
 * route's NO_UPSTREAM_KEY, which no upstream key may accompany, and the route's own cache key prefix.
 */
import { describe, expect, it } from 'vitest';
import { stylePackDir } from '../../../infra/bundling.js';
import { loadConfig } from '../../../lib/config.js';
import { cacheKeyPrefix, ROUTES } from '../../../lib/routes.js';

const CLIENT_KEYS = { CLIENT_KEYS_SECRET_ID: 'search-api/client-keys' };

describe('NO_UPSTREAM_KEY', () => {
  it('lets a free route start with the client keys alone', () => {
    expect(loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true' }).NO_UPSTREAM_KEY).toBe('true');
  });

  it.each([
    ['SERPAPI_SECRET_ID', 'search-api/serpapi'],
    ['SERPAPI_API_KEY', 'a-plain-key'],
  ])('refuses it beside %s: a function without the key is never handed one', (name, value) => {
    expect(() => loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true', [name]: value })).toThrow(
      /NO_UPSTREAM_KEY: NO_UPSTREAM_KEY=true: set neither SERPAPI_API_KEY nor SERPAPI_SECRET_ID/,
    );
  });

  it('still requires one source of the key everywhere else', () => {
    expect(() => loadConfig(CLIENT_KEYS)).toThrow(/SERPAPI_API_KEY: set SERPAPI_API_KEY or SERPAPI_SECRET_ID/);
    expect(() => loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'false' })).toThrow(/set SERPAPI_API_KEY or SERPAPI_SECRET_ID/);
  });
});

describe('CACHE_KEY_PREFIX', () => {
  it('takes every route’s prefix, and none locally', () => {
    for (const route of ROUTES) {
      const prefix = cacheKeyPrefix(route.name);
      expect(loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true', CACHE_KEY_PREFIX: prefix }).CACHE_KEY_PREFIX).toBe(prefix);
    }
    expect(loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true' }).CACHE_KEY_PREFIX).toBe('');
  });

  it.each(['web-search-alpha', '../answer-v1#', 'a/b/'])('refuses %j, which is no route’s prefix', (prefix) => {
    expect(() => loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true', CACHE_KEY_PREFIX: prefix })).toThrow(/CACHE_KEY_PREFIX/);
  });
});

describe('STYLE_PACK_DIR', () => {
  it('takes the layer’s folder the stack sets, and is unset locally (the repository’s pack)', () => {
    const env = { ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true' };
    expect(loadConfig({ ...env, STYLE_PACK_DIR: stylePackDir() }).STYLE_PACK_DIR).toBe('/opt/csl-style-pack');
    expect(loadConfig(env).STYLE_PACK_DIR).toBeUndefined();
  });

  it.each(['csl-style-pack', './opt/csl-style-pack', ''])('refuses %j, which is no absolute path', (dir) => {
    expect(() => loadConfig({ ...CLIENT_KEYS, NO_UPSTREAM_KEY: 'true', STYLE_PACK_DIR: dir })).toThrow(
      /STYLE_PACK_DIR: must be an absolute path/,
    );
  });
});
