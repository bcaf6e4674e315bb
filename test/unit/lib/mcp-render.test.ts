import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inline, renderError, renderSuccess, TEXT_MAX } from '../../../lib/mcp/render.js';
import { missingFromText } from '../../support/text-coverage.js';

describe('MCP text results', () => {
  it('cap the text and say what was cut, keeping the headings and records', () => {
    const organic_results = Array.from({ length: 400 }, (_, i) => ({
      title: `Result ${i + 1}`,
      link: `https://example.com/${i}`,
      snippet: 'x'.repeat(200),
    }));
    const text = renderSuccess('400 results', {
      organic_results,
      pagination: { next_page: 1 },
      search_information: { total: 9 },
    });
    expect(text.length).toBeLessThanOrEqual(TEXT_MAX);
    expect(text).toContain('1. Result 1\n');
    expect(text).toMatch(
      /\[Cut to 24000 characters: the last \d+ of 400 organic_results not shown here; structuredContent has every field\.\]/,
    );
    expect(text).toContain('search_information: total: 9');
    expect(text).toMatch(/Next page: call again with page=1/);
  });

  it('say in the cut line how to ask this tool for less', () => {
    const results = Array.from({ length: 50 }, (_, i) => ({ reference: `ref ${i}`, title: `T${i}`, snippet: 'y'.repeat(600) }));
    expect(renderSuccess('50', { results }, 'cite-resolve')).toMatch(/or send fewer `references` a call/);
    const papers = results.map((paper, i) => ({ ...paper, index: i + 1 }));
    expect(renderSuccess('50', { papers }, 'cite-search')).toMatch(/or ask for fewer `results` a page/);
    expect(renderSuccess('50', { organic_results: papers }, 'web-search-alpha')).toMatch(/or ask for a smaller `num`/);
    // A tool with no page size to lower: only what is cut, and where the rest is.
    expect(renderSuccess('50', { organic_results: papers }, 'web-search-bravo')).toMatch(/has every field\.\]/);
  });

  it('say every value of any data that fits, nested or not (text ⊇ structuredContent)', () => {
    const key = fc
      .stringMatching(/^[a-z][a-z_]{0,9}$/)
      .filter(
        (name) => !['citations', 'citation_details', 'reference_list', 'note', 'url_list', 'message', 'format'].includes(name),
      );
    const scalar = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, fc.constant(null), tie('list'), tie('record')),
      list: fc.array(tie('value'), { maxLength: 4 }),
      record: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    }));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (data) => {
        const text = renderSuccess('answer', data);
        if (text.includes('[Cut to')) return;
        expect(missingFromText(data, text)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('number an item by its position or rank, and name links inline', () => {
    const text = renderSuccess('2 results', {
      organic_results: [
        {
          position: 11,
          title: 'Eleven',
          link: 'https://e.example/11',
          sitelinks: [{ title: 'Docs', link: 'https://e.example/docs' }],
        },
      ],
    });
    expect(text).toContain('11. Eleven\n   https://e.example/11');
    expect(text).toContain('sitelinks: Docs <https://e.example/docs>');
    expect(
      inline([
        { year: 2021, citations: 61 },
        { year: 2022, citations: 55 },
      ]),
    ).toBe('year, citations: 2021 61; 2022 55');
    expect(inline({ count: 3, link: 'https://x.example' })).toBe('{link: https://x.example; count: 3}');
  });

  it('give each paper its five formats a line each, the source of each that differs, and why it fell back', () => {
    const citations = { MLA: 'M.', APA: 'A.', Chicago: 'C.', Harvard: 'H.', Vancouver: 'V.' };
    const text = renderSuccess('1 paper', {
      format: 'MLA',
      reference_list: ['[1] M.'],
      papers: [{ index: 1, title: 'Paper', citations, citations_source: 'crossref', citation_gaps: [] }],
      citation_details: [
        {
          index: 1,
          formats: Object.entries(citations).map(([name, t]) => ({
            name,
            text: t,
            source: name === 'APA' ? 'index-record' : 'crossref',
          })),
          fallback_reason: 'Crossref timed out for APA',
        },
      ],
    });
    expect(text).toContain(
      '   MLA: reference_list [1]\n   APA (from index-record): A.\n   Chicago: C.\n   Harvard: H.\n   Vancouver: V.',
    );
    expect(text).toContain('citations_source: crossref');
    expect(text).toContain('fallback_reason: Crossref timed out for APA');
  });

  it('give each checked reference its verdict and input first, then each issue with what was cited and recorded', () => {
    const results = [
      {
        index: 1,
        input: 'Boettiger, C., Nobody, A., & Hastings, A. (2031). Early warning signals. Theoretical Ecology.',
        format: 'text',
        verdict: 'mismatch',
        issues: [
          {
            rule: 'authors_unknown',
            field: 'authors',
            severity: 'error',
            cited: 'Boettiger, C., Nobody, A., & Hastings, A',
            recorded: 'Carl Boettiger, Noam Ross, Alan Hastings',
            message: 'The reference names “nobody”, who is none of the record’s authors.',
          },
          { rule: 'retracted', field: 'record', severity: 'error', cited: null, recorded: null, message: 'Retracted.' },
        ],
        doi: '10.1007/s12080-013-0192-6',
        message: 'The record differs from the reference: 2 errors.',
      },
    ];
    const text = renderSuccess('1 of 1 references checked', { results }, 'cite-check');
    expect(text).toContain('1. mismatch: Boettiger, C., Nobody, A., & Hastings, A. (2031).');
    expect(text).toContain(
      '   - error authors [authors_unknown] (cited: Boettiger, C., Nobody, A., & Hastings, A; recorded: Carl Boettiger, Noam Ross, Alan Hastings): The reference names “nobody”',
    );
    expect(text).toContain('   - error record [retracted]: Retracted.');
    expect(missingFromText({ results }, text)).toEqual([]);
  });

  it('give error advice that fits the tool: cite search has no other engine', () => {
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'cite-search')).not.toMatch(/another engine\)/);
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'cite-search')).toMatch(/no other engine/);
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'web-search-bravo')).toMatch(/another web_search_\* tool/);
  });

  it('answer a hang with a retry, never with a smaller page: a provider that does not answer is not made to by one', () => {
    for (const route of [undefined, 'web-search-alpha', 'cite-search', 'scholar-profiles', 'scholar-author', 'alpha-news']) {
      const text = renderError('UPSTREAM_TIMEOUT', 'The search provider did not answer in time', 'd', undefined, route);
      expect(text, String(route)).toMatch(/What to do: .*retry once/i);
      expect(text, String(route)).not.toMatch(/\b(?:smaller|fewer)\b[^.]*`(?:num|results|enrich)`|with fewer results/);
    }
    expect(renderError('UPSTREAM_TIMEOUT', 'm', 'd', undefined, 'web-search-bravo')).toMatch(/another web_search_\* tool/);
    expect(renderError('UPSTREAM_TIMEOUT', 'm', 'd', undefined, 'cite-search')).toMatch(/no other engine/);
  });

  it('say nothing of a citation source a reference does not have: an unresolved one has none, never "undefined"', () => {
    const text = renderSuccess('0 of 1 references resolved', {
      total_references: 1,
      resolved: 0,
      references: [
        {
          input: '10.1234/nothing.here',
          doi: null,
          citations: {},
          citations_source: null,
          reason: 'Crossref refused the lookup for rate (HTTP 429) (Retry-After: ask again after 2026-11-28T23:31:05Z)',
        },
      ],
    });
    expect(text).not.toContain('undefined');
    expect(text).not.toContain('citations_source');
    expect(text).toContain('   citations: none');
    expect(text).toContain('(Retry-After: ask again after 2026-11-28T23:31:05Z)');
  });
});
