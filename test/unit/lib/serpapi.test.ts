import { describe, expect, it } from 'vitest';
import { classify, parseRetryAfter, redact, toQuery } from '../../../lib/upstream/serpapi.js';

const KEY = 'sk-live-abc123';

describe('toQuery', () => {
  it('puts the engine first and leaves out empty values', () => {
    expect(toQuery('google', { q: 'a b', hl: undefined, location: '', start: 0, num: null }).toString()).toBe(
      'engine=google&q=a+b&start=0',
    );
  });

  it('encodes emoji, CJK and right-to-left marks as UTF-8', () => {
    const query = toQuery('baidu', { q: '咖啡 ☕ \u200fمرحبا' });
    expect(query.toString()).toBe('engine=baidu&q=%E5%92%96%E5%95%A1+%E2%98%95+%E2%80%8F%D9%85%D8%B1%D8%AD%D8%A8%D8%A7');
  });
});

describe('redact', () => {
  it('removes the key wherever it appears, and any api_key parameter', () => {
    expect(redact(`bad key ${KEY} at https://x/search.json?api_key=other&q=1`, KEY)).toBe(
      'bad key [redacted] at https://x/search.json?api_key=[redacted]&q=1',
    );
  });

  it('removes the key only where it stands as a key, never from inside other text', () => {
    // A short key that also spells part of a link: the link stays whole, only the api_key value goes.
    expect(redact('see https://foo.baltimore.com/o/?api_key=o&b=oo', 'o')).toBe(
      'see https://foo.baltimore.com/o/?api_key=[redacted]&b=oo',
    );
    expect(redact(`x${KEY}y ${KEY}-1 1_${KEY}`, KEY)).toBe(`x${KEY}y ${KEY}-1 1_${KEY}`);
    expect(redact(`"${KEY}"`, KEY)).toBe('"[redacted]"');
  });

  it('cuts long upstream messages', () => {
    expect(redact('x'.repeat(1000), KEY)).toHaveLength(301);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('1'.repeat(40))).toBe(86_400_000);
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    expect(parseRetryAfter(inTwoSeconds)).toBeGreaterThan(0);
    expect(parseRetryAfter(inTwoSeconds)).toBeLessThanOrEqual(2000);
  });
});

describe('classify', () => {
  it('returns the JSON of a 200', () => {
    expect(classify(200, null, '{"organic_results":[]}', KEY)).toEqual({
      kind: 'json',
      json: { organic_results: [] },
      billed: true,
    });
  });

  it.each([
    { error: "Bing hasn't returned any results for this query.", search_metadata: { status: 'Success' } },
    { error: 'No results found for this query.' },
  ])('treats %j as a successful empty answer, passing the whole answer on', (answer) => {
    // The reshapers read the same object and answer "No results": nothing of it may be dropped or changed.
    expect(classify(200, null, JSON.stringify(answer), KEY)).toEqual({ kind: 'json', json: answer, billed: true });
  });

  it('treats any other error text of a 200 as a final UPSTREAM_ERROR, not as no results', () => {
    const outcome = classify(200, null, JSON.stringify({ error: 'Google returned some results, then failed.' }), KEY);
    expect(outcome.kind).toBe('final');
  });

  it.each([
    [200, 'not json', 'final', 'UPSTREAM_ERROR'],
    [200, '[1,2]', 'final', 'UPSTREAM_ERROR'],
    [200, '{"error":"Unsupported location"}', 'final', 'UPSTREAM_ERROR'],
    [400, '{"error":"Missing query"}', 'final', 'UPSTREAM_ERROR'],
    [401, '{"error":"Invalid API key"}', 'final', 'SERVICE_MISCONFIGURED'],
    [403, '', 'final', 'SERVICE_MISCONFIGURED'],
    [429, '{"error":"Your account has run out of searches."}', 'final', 'UPSTREAM_QUOTA_EXCEEDED'],
    [429, '{"error":"Too many requests"}', 'retryable', 'UPSTREAM_QUOTA_EXCEEDED'],
    [500, '', 'retryable', 'UPSTREAM_ERROR'],
    [502, '<html>Bad Gateway</html>', 'retryable', 'UPSTREAM_ERROR'],
  ] as const)('HTTP %i with %j is %s %s', (status, body, kind, code) => {
    const outcome = classify(status, null, body, KEY);
    expect(outcome.kind).toBe(kind);
    expect(outcome.kind !== 'json' && outcome.error.code).toBe(code);
  });

  it('says that the plan is used up when SerpApi says the account has run out of searches', () => {
    const outcome = classify(429, null, '{"error":"Your account has run out of searches."}', KEY);
    expect(outcome.kind !== 'json' && outcome.error.details).toBe(
      "The search provider's plan for this service is used up (it said: Your account has run out of searches.); no search can succeed until its operator renews or upgrades the plan",
    );
  });

  it("passes SerpApi's own words of a 5xx on", () => {
    const outcome = classify(503, null, '{"error":"Something went wrong on our end, please try again later."}', KEY);
    expect(outcome.kind !== 'json' && outcome.error.details).toBe(
      'The search provider answered HTTP 503: Something went wrong on our end, please try again later.',
    );
  });

  it('passes Retry-After of a 429 on to the client and to the retry loop', () => {
    const outcome = classify(429, '7', '{}', KEY);
    expect(outcome).toMatchObject({ kind: 'retryable', retryAfterMs: 7000 });
    expect(outcome.kind !== 'json' && outcome.error.headers).toEqual({ 'Retry-After': '7' });
  });

  it('takes the key out of an answer where it stands as a key, and leaves every other text whole', () => {
    const short = 'fo';
    const answer = {
      search_parameters: { api_key: short, q: 'fo' },
      organic_results: [
        { link: 'https://food.baltimore.com/fo/menu', title: 'Fo, food and more' },
        { serpapi_link: `https://serpapi.com/search.json?engine=google&api_key=${short}&q=fo` },
      ],
      search_metadata: { echo: KEY },
    };
    const outcome = classify(200, null, JSON.stringify(answer), short);
    expect(outcome).toEqual({
      kind: 'json',
      billed: true,
      json: {
        search_parameters: { api_key: '[redacted]', q: '[redacted]' },
        organic_results: [
          { link: 'https://food.baltimore.com/fo/menu', title: 'Fo, food and more' },
          { serpapi_link: 'https://serpapi.com/search.json?engine=google&api_key=[redacted]&q=fo' },
        ],
        search_metadata: { echo: KEY },
      },
    });
    const echoed = classify(200, null, JSON.stringify({ search_parameters: { api_key: KEY }, note: `key ${KEY}` }), KEY);
    expect(JSON.stringify(echoed)).not.toContain(KEY);
  });

  it('never lets the key of an upstream message through', () => {
    const outcome = classify(200, null, JSON.stringify({ error: `Key ${KEY} is not allowed` }), KEY);
    expect(outcome.kind !== 'json' && outcome.error.details).toBe(
      'The search provider reported an error: Key [redacted] is not allowed',
    );
  });
});

describe('what the provider bills (docs/budget-and-caching.md, "What the provider bills")', () => {
  const error503 = JSON.stringify({
    search_metadata: { status: 'Error' },
    error: "We couldn't get valid results for this search. Please try again later.",
  });
  it.each<[string, number, string, boolean]>([
    ['a result page', 200, '{"organic_results":[{"title":"x"}]}', true],
    [
      'a search that found nothing (its status Success)',
      200,
      '{"search_metadata":{"status":"Success"},"error":"Google hasn\'t returned any results for this query."}',
      true,
    ],
    ['a 200 that is not JSON', 200, '{"organic', true],
    ['a 200 that is not an object', 200, '[1]', true],
    ['a 200 whose search status is Error', 200, '{"search_metadata":{"status":"Error"}}', false],
    ['a 200 with an error of its own', 200, '{"error":"Unsupported `xx` location - location parameter."}', false],
    ["SerpApi's 503 for a failed search", 503, error503, false],
    ['a 500', 500, '{}', false],
    ['a 429', 429, '{"error":"Too many requests"}', false],
    ['a 429 for a plan used up', 429, '{"error":"Your account has run out of searches."}', false],
    ['a 401', 401, '{}', false],
    ['a 404', 404, '{}', false],
  ])('%s: billed %s', (_name, status, text, billed) => {
    expect(classify(status, null, text, KEY).billed).toBe(billed);
  });

  it('says why a 200 whose status is Error failed, when it gives no words of its own', () => {
    const outcome = classify(200, null, '{"search_metadata":{"status":"Error"}}', KEY);
    expect(outcome.kind !== 'json' && outcome.error.details).toBe(
      'The search provider reported an error (its search status is Error)',
    );
  });
});
