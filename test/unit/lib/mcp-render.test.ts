import { describe, expect, it } from 'vitest';
import { renderError, renderSuccess, TEXT_MAX } from '../../../lib/mcp/render.js';

describe('MCP text results', () => {
  it('cap the text and say what was cut', () => {
    const organic_results = Array.from({ length: 400 }, (_, i) => ({
      title: `Result ${i + 1}`,
      link: `https://example.com/${i}`,
      snippet: 'x'.repeat(200),
    }));
    const text = renderSuccess('400 results', { organic_results, pagination: { next_page: 1 } });
    expect(text.length).toBeLessThanOrEqual(TEXT_MAX);
    expect(text).toContain('Result 1\n');
    expect(text).toMatch(/\[Cut to 24000 characters: the last \d+ of 400 organic_results not shown/);
    expect(text).toMatch(/Next page: call again with page=1/);
  });

  it('give error advice that fits the tool: cite search has no other engine', () => {
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'cite-search')).not.toMatch(/another engine\)/);
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'cite-search')).toMatch(/no other engine/);
    expect(renderError('UPSTREAM_ERROR', 'm', 'd', undefined, 'web-search-bravo')).toMatch(/another web_search_\* tool/);
    expect(renderError('UPSTREAM_TIMEOUT', 'm', 'd', undefined, 'cite-search')).toMatch(/fewer `results`/);
  });
});
