/**
 * The web answers beside the results, as pure functions: a result's facts (date, source, favicon,
 * sitelinks), AI overviews as plain text blocks, the AI overview's states, "People also ask" answers of
 * every type, the answer box, the knowledge graph summary, and the table of what is carried.
 */
import { describe, expect, it } from 'vitest';
import {
  aiOverviewContent,
  NOT_FETCHED_NOTE,
  overviewFromFollowUp,
  overviewFromSearch,
  PEOPLE_ALSO_ASK_HELD_BACK_NOTE,
  textBlock,
} from '../../../lib/reshape/ai-overview.js';
import { CARRIED, carriedLeaves, notCarried } from '../../../lib/reshape/carried.js';
import { reshapeRelatedSearches, reshapeSitelinks, resultFacts, SITELINKS_MAX } from '../../../lib/reshape/web.js';
import {
  ANSWER_BOX_LEFT_OUT_ENDINGS,
  KNOWLEDGE_GRAPH_FACTS_MAX,
  reshapeAnswerBox,
  reshapeKnowledgeGraph,
  reshapeNewsResults,
  reshapePeopleAlsoAsk,
} from '../../../lib/reshape/web-answers.js';

describe('a result’s facts', () => {
  it('carries date, date_raw, source and favicon as given, trimmed, and leaves out what is absent or blank', () => {
    expect(
      resultFacts({ date: 'Jul 19, 2023', date_raw: '2023-07-19T01:51:00.0000000', source: ' Wikipedia ', favicon: 'https://f' }),
    ).toEqual({ date: 'Jul 19, 2023', date_raw: '2023-07-19T01:51:00.0000000', source: 'Wikipedia', favicon: 'https://f' });
    expect(resultFacts({ date: '  ', source: null, favicon: 3, sitelinks: {} })).toEqual({ favicon: '3' });
    expect(resultFacts({})).toEqual({});
  });

  it('takes sitelinks in any form, expanded ones first, each link once, at most six', () => {
    const inline = [
      { title: 'History', link: 'https://x/history' },
      { title: 'Beans', link: 'https://x/beans' },
    ];
    const expanded = [
      { title: 'Beans', link: 'https://x/beans', snippet: 'About beans' },
      { title: 'Menu', link: 'https://x/menu' },
    ];
    expect(reshapeSitelinks({ inline, expanded })).toEqual([
      { title: 'Beans', link: 'https://x/beans' },
      { title: 'Menu', link: 'https://x/menu' },
      { title: 'History', link: 'https://x/history' },
    ]);
    expect(reshapeSitelinks(inline)).toEqual(inline);
    expect(reshapeSitelinks({ inline: [{ title: 'no link' }, { link: 'https://x/untitled' }] })).toEqual([
      { title: '', link: 'https://x/untitled' },
    ]);
    const many = Array.from({ length: 9 }, (_, i) => ({ title: `${i}`, link: `https://x/${i}` }));
    expect(reshapeSitelinks({ inline: many })).toHaveLength(SITELINKS_MAX);
    expect(SITELINKS_MAX).toBe(6);
  });

  it('reads related searches given as plain strings as their query', () => {
    expect(reshapeRelatedSearches(['France flag', ' ', { query: 'x', link: 'https://l' }])).toEqual([
      { query: 'France flag', link: null },
      { query: 'x', link: 'https://l' },
    ]);
  });
});

describe('AI overview text blocks', () => {
  it('writes a paragraph as its text and a heading as its title, with the references they cite', () => {
    expect(textBlock({ type: 'paragraph', snippet: 'Coffee is fine.', reference_indexes: [2, 0, 2] })).toEqual({
      type: 'paragraph',
      text: 'Coffee is fine.',
      reference_indexes: [0, 2],
    });
    expect(textBlock({ type: 'heading', snippet: 'Benefits' })).toEqual({
      type: 'heading',
      text: 'Benefits',
      reference_indexes: [],
    });
  });

  it('writes a list one item a line, "title snippet", nested items indented, and gathers every item’s references', () => {
    const block = textBlock({
      type: 'list',
      list: [
        { title: 'Brain:', snippet: 'Mood.', reference_indexes: [3] },
        { snippet: 'Liver.', reference_indexes: [1], list: [{ snippet: 'Decaf too.', reference_indexes: [7] }] },
      ],
    });
    expect(block).toEqual({ type: 'list', text: '- Brain: Mood.\n- Liver.\n  - Decaf too.', reference_indexes: [1, 3, 7] });
  });

  it('writes tables row by row, comparisons feature by feature, expandable sections with their inner blocks, stories by title', () => {
    expect(
      textBlock({
        type: 'table',
        table: [
          ['Size', 'Caffeine'],
          ['8 oz', '95 mg'],
        ],
      })?.text,
    ).toBe('Size | Caffeine\n8 oz | 95 mg');
    expect(
      textBlock({
        type: 'comparison',
        product_labels: ['A', 'B'],
        comparison: [{ feature: 'Price', values: ['$1', '$2'] }],
      })?.text,
    ).toBe('A | B\nPrice: $1 | $2');
    expect(
      textBlock({
        type: 'expandable',
        title: 'Risks',
        text_blocks: [{ type: 'paragraph', snippet: 'Sleep.', reference_indexes: [4] }],
      }),
    ).toEqual({ type: 'expandable', text: 'Risks\nSleep.', reference_indexes: [4] });
    expect(textBlock({ type: 'top_stories', top_stories: [{ title: 'News', source: 'Paper', link: 'https://n' }] })?.text).toBe(
      '- News · Paper · https://n',
    );
  });

  it('leaves out a block with no text, and reads an unknown type for the same fields', () => {
    expect(textBlock({ type: 'video', video: { link: 'https://v' } })).toBeUndefined();
    expect(textBlock({ type: 'carousel_2027', snippet: 'Still text' })).toEqual({
      type: 'carousel_2027',
      text: 'Still text',
      reference_indexes: [],
    });
    expect(aiOverviewContent({ text_blocks: [{ type: 'video' }], references: [{ title: 'x' }] })).toBeUndefined();
  });

  it('keeps each reference’s index, title, link, source and snippet, null where absent', () => {
    const content = aiOverviewContent({
      text_blocks: [{ type: 'paragraph', snippet: 'x' }],
      references: [
        { link: 'https://bare', index: 4 },
        { title: 'T', link: 'https://l', source: 'S', snippet: 'P', index: 0 },
      ],
    });
    expect(content?.references).toEqual([
      { index: 4, title: null, link: 'https://bare', source: null, snippet: null },
      { index: 0, title: 'T', link: 'https://l', source: 'S', snippet: 'P' },
    ]);
  });
});

describe('the AI overview’s state', () => {
  const inline = { text_blocks: [{ type: 'paragraph', snippet: 'Yes.' }], references: [] };

  it('is inline when the search answer holds it, whether or not the follow-up was asked for', () => {
    for (const asked of [false, true]) {
      expect(overviewFromSearch(inline, asked)).toEqual({
        overview: {
          state: 'inline',
          text_blocks: [{ type: 'paragraph', text: 'Yes.', reference_indexes: [] }],
          references: [],
          note: null,
          error: null,
        },
      });
    }
  });

  it('gives the token to fetch it with only when asked; else says how to ask', () => {
    expect(overviewFromSearch({ page_token: 'T0K', serpapi_link: 'https://serpapi.com/x' }, true)).toEqual({ pageToken: 'T0K' });
    const { overview, pageToken } = overviewFromSearch({ page_token: 'T0K' }, false);
    expect(pageToken).toBeUndefined();
    expect(overview).toEqual({ state: 'not_fetched', text_blocks: [], references: [], note: NOT_FETCHED_NOTE, error: null });
    expect(NOT_FETCHED_NOTE).toMatch(/"fetch_ai_overview": true/);
  });

  it('passes on Google’s own refusal as failed, and has nothing to say when there is no block', () => {
    const { overview } = overviewFromSearch({ error: "Can't generate an AI overview right now. Try again later." }, true);
    expect(overview?.state).toBe('failed');
    expect(overview?.error).toEqual({
      code: 'UPSTREAM_ERROR',
      details:
        "The search provider could not give Google's AI overview: Can't generate an AI overview right now. Try again later.",
    });
    expect(overviewFromSearch(undefined, true)).toEqual({});
    expect(overviewFromSearch({}, true)).toEqual({});
  });

  it('is fetched from the follow-up answer (nested under ai_overview, or at its top)', () => {
    expect(overviewFromFollowUp({ ok: true, value: { ai_overview: inline } }, null).state).toBe('fetched');
    expect(overviewFromFollowUp({ ok: true, value: inline }, null).text_blocks).toHaveLength(1);
    const empty = overviewFromFollowUp({ ok: true, value: { ai_overview: {} } }, null);
    expect([empty.state, empty.error?.code]).toEqual(['failed', 'UPSTREAM_ERROR']);
    const refused = overviewFromFollowUp({ ok: true, value: { ai_overview: { error: 'No overview' } } }, null);
    expect(refused.error?.details).toMatch(/No overview$/);
  });

  it('is failed with the follow-up’s code and details, saying when the search ran and how to ask afresh', () => {
    const failed = overviewFromFollowUp(
      { ok: false, error: { code: 'UPSTREAM_ERROR', details: 'The search provider reported an error: expired token' } },
      '2026-01-03 14:20:00 UTC',
    );
    expect(failed).toMatchObject({
      state: 'failed',
      text_blocks: [],
      error: { code: 'UPSTREAM_ERROR', details: 'The search provider reported an error: expired token' },
    });
    expect(failed.note).toMatch(/2026-01-03 14:20:00 UTC/);
    expect(failed.note).toMatch(/"no_cache": true/);
    const refused = overviewFromFollowUp({ ok: false, error: { code: 'BUDGET_EXHAUSTED', details: 'spent' } }, null);
    expect(refused.note).toMatch(/budget refused the follow-up/);
    expect(refused.note).not.toMatch(/no_cache/);
  });
});

describe('people also ask', () => {
  it('keeps the contract’s fields and adds the answer whatever its type: list, table, AI overview', () => {
    const [list, table, overview, bare] = reshapePeopleAlsoAsk([
      { question: 'Best?', type: 'featured_snippet', title: 'Top', date: 'Aug 14, 2025', list: ['A.', 'B.'] },
      {
        question: 'Sizes?',
        table: [
          ['Size', 'mg'],
          ['8 oz', 95],
        ],
      },
      {
        question: 'Healthy?',
        type: 'ai_overview',
        text_blocks: [{ type: 'paragraph', snippet: 'Yes, in moderation.', reference_indexes: [0] }],
        references: [{ title: 'Mayo', link: 'https://mayo', source: 'Mayo Clinic', index: 0 }],
      },
      { question: 'Why?' },
    ]);
    expect(list).toEqual({
      question: 'Best?',
      snippet: null,
      title: 'Top',
      link: null,
      displayed_link: null,
      type: 'featured_snippet',
      date: 'Aug 14, 2025',
      list: ['A.', 'B.'],
    });
    expect(table?.table).toEqual([
      ['Size', 'mg'],
      ['8 oz', '95'],
    ]);
    expect(overview?.snippet).toBe('Yes, in moderation.');
    expect(overview?.ai_overview).toMatchObject({ state: 'inline', note: null, error: null });
    expect(overview?.ai_overview?.references[0]).toMatchObject({ title: 'Mayo', source: 'Mayo Clinic' });
    expect(bare).toEqual({ question: 'Why?', snippet: null, title: null, link: null, displayed_link: null });
  });

  it('says an AI overview Google held back is not fetched, and how to have it, whichever of its token and link it gives', () => {
    const heldBack = reshapePeopleAlsoAsk([
      { question: 'Is JWT safe?', type: 'ai_overview', page_token: 'G2BHon…', next_page_token: 'eyJ…' },
      { question: 'Linked only?', type: 'ai_overview', serpapi_ai_overview_link: 'https://serpapi.com/search.json?…' },
    ]);
    for (const entry of heldBack) {
      expect(entry.ai_overview).toEqual({
        state: 'not_fetched',
        text_blocks: [],
        references: [],
        note: PEOPLE_ALSO_ASK_HELD_BACK_NOTE,
        error: null,
      });
      expect(entry.snippet).toBeNull();
    }
    // A related-questions token alone (`next_page_token`, more questions) is no overview.
    expect(reshapePeopleAlsoAsk([{ question: 'More?', next_page_token: 'eyJ…' }])[0]?.ai_overview).toBeUndefined();
  });
});

describe('the answer box', () => {
  it('summarises an organic_result box, a calculator’s result as its answer, and the first of a list', () => {
    expect(
      reshapeAnswerBox({ type: 'organic_result', title: 'France › Capital', answer: 'Paris', thumbnail: 'https://t' }),
    ).toEqual({
      type: 'organic_result',
      title: 'France › Capital',
      answer: 'Paris',
      snippet: null,
      list: [],
      link: null,
      displayed_link: null,
      source: null,
      date: null,
      details: {},
    });
    expect(reshapeAnswerBox({ type: 'calculator_result', result: '3.141592653589793' })?.answer).toBe('3.141592653589793');
    expect(reshapeAnswerBox([{ type: 'a', title: 'First' }, { title: 'Second' }])?.title).toBe('First');
    expect(reshapeAnswerBox({ type: 'x', list: [{ title: 'One', snippet: 'first' }, 'Two'] })?.list).toEqual([
      'One first',
      'Two',
    ]);
  });

  it('keeps every value of a box of any type in details, nested as given, without pictures, upstream links or tokens', () => {
    // The shape of SerpApi's finance answer box, values made up here.
    const box = reshapeAnswerBox({
      type: 'finance_results',
      title: 'Apple Inc',
      exchange: 'NASDAQ',
      stock: 'AAPL',
      price: 227.52,
      currency: 'USD',
      price_movement: { percentage: 0.82, value: 1.86, movement: 'Up' },
      table: [
        { name: 'Open', value: '225.89' },
        { name: 'Mkt cap', value: '3.44T' },
      ],
      thumbnail: 'https://t',
      serpapi_link: 'https://serpapi.com/x',
      chart_serpapi_link: 'https://serpapi.com/y',
      snippet_highlighted_words: ['AAPL'],
      extensions: ['', 'After hours'],
      empty: {},
      nothing: null,
    });
    expect(box).toMatchObject({ type: 'finance_results', title: 'Apple Inc' });
    expect(box?.details).toEqual({
      exchange: 'NASDAQ',
      stock: 'AAPL',
      price: 227.52,
      currency: 'USD',
      price_movement: { percentage: 0.82, value: 1.86, movement: 'Up' },
      table: [
        { name: 'Open', value: '225.89' },
        { name: 'Mkt cap', value: '3.44T' },
      ],
      extensions: ['After hours'],
    });
  });

  it('keeps whole in details what the summary holds only in part: a source with its link, list items with theirs', () => {
    const box = reshapeAnswerBox({
      type: 'organic_result',
      title: 'T',
      source: { name: 'Site', link: 'https://site' },
      list: [{ title: 'One', link: 'https://one' }],
      date: 'May 1, 2025',
    });
    expect(box).toMatchObject({ source: 'Site', list: ['One'], date: 'May 1, 2025' });
    expect(box?.details).toEqual({
      source: { name: 'Site', link: 'https://site' },
      list: [{ title: 'One', link: 'https://one' }],
    });
    expect(reshapeAnswerBox({ type: 'x', title: 'T', list: ['a', 'b'] })?.details).toEqual({});
  });

  it('keeps a box whose only values are in details, such as a weather box, and leaves pictures out at every depth', () => {
    const box = reshapeAnswerBox({
      type: 'weather_result',
      temperature: '77',
      thumbnail: 'https://t',
      forecast: [{ day: 'Friday', temperature: { high: '77', low: '53' }, thumbnail: 'https://t' }],
    });
    expect(box).toMatchObject({ type: 'weather_result', title: null, answer: null });
    expect(box?.details).toEqual({ temperature: '77', forecast: [{ day: 'Friday', temperature: { high: '77', low: '53' } }] });
    // Written out, so that each ending is decided here (pictures, the upstream's links and tokens, highlighting).
    const leftOut = ['thumbnail', 'thumbnails', 'image', 'images', 'logo', 'favicon', 'icon', 'serpapi_link', 'redirect_link'];
    expect([...ANSWER_BOX_LEFT_OUT_ENDINGS]).toEqual([...leftOut, 'stick', 'highlighted_words']);
    for (const ending of [...leftOut, 'stick', 'highlighted_words']) {
      expect(reshapeAnswerBox({ type: 'x', [ending]: 'v', [`a_${ending}`]: 'v', kept: 'v' })?.details, ending).toEqual({
        kept: 'v',
      });
    }
  });

  it('is absent when there is none, or when it says nothing a client can read', () => {
    expect(reshapeAnswerBox(undefined)).toBeUndefined();
    expect(reshapeAnswerBox({ type: 'weather_result', thumbnail: 'https://t' })).toBeUndefined();
  });
});

describe('the knowledge graph summary', () => {
  it('takes Google’s facts from the block’s own keys, leaving out its fields, ids, links, pictures and tokens', () => {
    const graph = reshapeKnowledgeGraph({
      title: 'Paris',
      type: 'Capital of France',
      entity_type: 'cities',
      kgmid: '/m/05qtj',
      description: 'A city.',
      source: { name: ' Wikipedia', link: 'https://w' },
      population: '2.103 million (2023)',
      mayor_links: [{ text: 'x', link: 'https://l' }],
      knowledge_graph_search_link: 'https://g',
      header_images: [{ image: 'https://i' }],
      website: 'https://paris.fr',
      area: '40.7 mi²',
      songs_about_paris_stick: 'H4sIAAAAAAAAAONgFuLUz9U3MCorTMtVQjC1',
    });
    expect(graph).toEqual({
      title: 'Paris',
      type: 'Capital of France',
      description: 'A city.',
      source: 'Wikipedia',
      link: 'https://w',
      facts: [
        { label: 'population', value: '2.103 million (2023)' },
        { label: 'website', value: 'https://paris.fr' },
        { label: 'area', value: '40.7 mi²' },
      ],
    });
  });

  it('takes every key of DuckDuckGo’s facts (its "type" included), at most 20, in order', () => {
    const facts = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`fact_${i}`, `v${i}`]));
    const graph = reshapeKnowledgeGraph({ title: 'Apple Inc.', facts: { type: 'Public', ...facts } });
    expect(graph?.facts[0]).toEqual({ label: 'type', value: 'Public' });
    expect(graph?.facts[1]).toEqual({ label: 'fact 0', value: 'v0' });
    expect(graph?.facts).toHaveLength(KNOWLEDGE_GRAPH_FACTS_MAX);
    expect(KNOWLEDGE_GRAPH_FACTS_MAX).toBe(20);
    expect(graph?.type).toBeNull();
  });

  it('is absent without a title or a description', () => {
    expect(reshapeKnowledgeGraph({ kgmid: '/m/x', header_images: [] })).toBeUndefined();
    expect(reshapeKnowledgeGraph('x')).toBeUndefined();
  });
});

describe('news beside the results', () => {
  it('keeps each story with a link, its date and source where given', () => {
    expect(
      reshapeNewsResults([
        { title: 'T', link: 'https://n', snippet: 'S', source: 'Paper', date: '3 hours ago', thumbnail: 'https://t' },
        { title: 'No link' },
      ]),
    ).toEqual([{ title: 'T', link: 'https://n', snippet: 'S', date: '3 hours ago', source: 'Paper' }]);
  });
});

describe('the table of what is carried', () => {
  const answer = {
    search_metadata: { id: 'x' },
    organic_results: [{ position: 1, title: 'T', link: 'https://l', redirect_link: 'https://r', rich_snippet: { a: 1 } }],
    knowledge_graph: { title: 'K', kgmid: '/m/1', founded: '1976', header_images: [{ image: 'https://i' }] },
    brand_new_block: { anything: [1, 2] },
    pagination: { next: 'https://next' },
  };

  it('names what is not carried at the highest level nothing below is carried, bookkeeping left out', () => {
    expect(notCarried(CARRIED['web-search-alpha']?.google ?? [], answer)).toEqual([
      'brand_new_block',
      'knowledge_graph.header_images[].image',
      'knowledge_graph.kgmid',
      'organic_results[].redirect_link',
      'organic_results[].rich_snippet',
    ]);
    // An engine with no list: every block.
    expect(notCarried([], { a: 1, b: [{ c: 2 }] })).toEqual(['a', 'b[]']);
  });

  it('lists as carried only values shown as they came: not paging links, tokens or taken-back keys', () => {
    const carried = carriedLeaves(CARRIED['web-search-alpha']?.google ?? [], {
      ...answer,
      ai_overview: { page_token: 'T0K' },
    }).map((leaf) => `${leaf.path}=${leaf.value}`);
    expect(carried).toEqual([
      'organic_results[].position=1',
      'organic_results[].title=T',
      'organic_results[].link=https://l',
      'knowledge_graph.title=K',
      'knowledge_graph.founded=1976',
    ]);
  });

  it('has a list for every engine each web endpoint calls', () => {
    expect(Object.keys(CARRIED['web-search-alpha'] ?? {})).toEqual(['google', 'google_ai_overview']);
    expect(Object.keys(CARRIED['web-search-bravo'] ?? {})).toEqual(['duckduckgo']);
    expect(Object.keys(CARRIED['web-search-charlie'] ?? {})).toEqual(['bing']);
    expect(Object.keys(CARRIED['web-search-delta'] ?? {})).toEqual(['baidu']);
  });
});
