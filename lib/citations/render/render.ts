/**
 * The five citation formats rendered locally from a paper's CSL-JSON record by citeproc-js (the CSL
 * processor of @citation-js/plugin-csl), so that a paper Crossref knows needs no paid cite call.
 *
 * Building a citeproc engine parses its whole style, inlining every macro where it is called; rendering
 * one entry with a built engine takes a few milliseconds. Each style is built as it renders one entry
 * (`forOneEntry`: most of a large style's build and memory went to parts one entry never uses) with its
 * macro lookups indexed (citeproc-macro-index.ts): ~0.3 s for the five on one core (the README's
 * benchmark). Each style's engine is built once per container, in one of two places:
 * - by default, deployed too, on the first citation request, while that request waits on the network (the
 *   index answers after a second or more): the styles are built one per turn of the event loop, so that
 *   answers arriving meanwhile are still read. At realistic latencies this answered a new container's
 *   first request sooner than a build at start-up (docs/decisions.md §26);
 * - with CITATION_STYLES_AT_INIT, while the container starts (`prepareCitationRenderer`): a start-up gets
 *   Lambda's burst CPU, and the first request then only renders, but every cold start carries the build,
 *   one that only serves a cached answer included.
 * A failed build is not kept: the next request tries again.
 *
 * Styles: MLA 9th edition and Chicago 18th edition notes-bibliography from the CSL styles repository
 * (lib/citations/styles, CC BY-SA 3.0), and the APA 7th edition, Cite Them Right 12th edition (harvard1)
 * and NLM/Vancouver styles as @citation-js/plugin-csl 0.8.2 bundles them: pinned, so that the five formats
 * do not change with the catalogue. They are read from the style pack (style-catalogue.ts), data beside
 * the code, as every other style is: the bundle carries no style.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine } from 'citeproc';
import { CITATION_FORMATS, type CitationFormat, type CitationMarkup, type Citations } from '../../contract/cite-search.js';
import { logger } from '../../logger.js';
import { AUTHORS_CUT, type CslItem } from '../model/csl.js';
import { indexMacroLookups } from './citeproc-macro-index.js';
import { loadStylePack } from './style-catalogue.js';

/** Renders one record in every format it can. */
export interface CitationRenderer {
  /**
   * The record's citations in every format whose style renders it (or in `formats` alone); a format whose
   * style gives nothing (Chicago for an author-less reference entry) or throws is left out, and the others
   * are kept.
   */
  render(item: CslItem, markup?: CitationMarkup, formats?: readonly CitationFormat[]): Citations;
  /** The built engines, one per format (for inspection: rendering goes through `render`). */
  readonly engines?: Readonly<Record<CitationFormat, Engine>>;
}

/**
 * The CSL style of each format (a style plugin-csl bundles, or one of lib/citations/styles) and the
 * locale it is written in: the style's own `default-locale` as published in the CSL repository, which
 * plugin-csl's copies leave out. Cite Them Right is a British guide: en-GB punctuation (no comma inside
 * quotation marks) and spelling.
 */
export const STYLE_OF: Record<
  CitationFormat,
  { pinned: 'mla' | 'chicago' | 'apa' | 'harvard1' | 'vancouver'; locale: 'en-US' | 'en-GB' }
> = {
  MLA: { pinned: 'mla', locale: 'en-US' },
  APA: { pinned: 'apa', locale: 'en-US' },
  Chicago: { pinned: 'chicago', locale: 'en-US' },
  Harvard: { pinned: 'harvard1', locale: 'en-GB' },
  Vancouver: { pinned: 'vancouver', locale: 'en-US' },
};

let building: Promise<CitationRenderer> | undefined;
let warming: Promise<void> | undefined;
let warmUpRenders = 0;

/**
 * The renderer, its engines built on first call and kept for the container's life. Call it as early as
 * possible (before the first network wait) and await it when a record needs rendering. Once built, its
 * rendering paths are compiled in the background (`warmUp`), while the request that built it most likely
 * waits on the network still.
 */
export function citationRenderer(): Promise<CitationRenderer> {
  building ??= buildRenderer().then(
    (renderer) => {
      warming = warmUp(renderer);
      return renderer;
    },
    (error: unknown) => {
      building = undefined;
      throw error;
    },
  );
  return building;
}

/** Warm-up renders made in this container so far (for tests). */
export function citationWarmUpRenders(): number {
  return warmUpRenders;
}

/** A journal article with what the styles print most: rendering it once compiles their rendering paths. */
export const WARM_UP_ITEM: CslItem = {
  id: 'warm-up',
  type: 'article-journal',
  title: 'A study of warm starts',
  author: [
    { family: 'Doe', given: 'Jane' },
    { family: 'Roe', given: 'Richard' },
  ],
  'container-title': 'Journal of Examples',
  volume: '12',
  issue: '3',
  page: '45-67',
  issued: { 'date-parts': [[2021, 5, 4]] },
  DOI: '10.5555/warm-up',
};

/**
 * The other kinds of work a page of papers holds, each taking its own paths through the styles (a chapter
 * names its book and editors, a book its publisher, a conference paper its proceedings, a preprint its
 * server): rendered at start-up too, so that the first page's first paper of each kind does not run them
 * cold.
 */
const WARM_UP_KINDS: CslItem[] = [
  {
    ...WARM_UP_ITEM,
    id: 'warm-up-chapter',
    type: 'chapter',
    'container-title': 'Handbook of Examples',
    editor: [{ family: 'Poe', given: 'Edgar' }],
    publisher: 'Example Press',
    'collection-title': 'Lecture Notes in Examples',
  },
  {
    ...WARM_UP_ITEM,
    id: 'warm-up-book',
    type: 'book',
    'container-title': undefined,
    publisher: 'Example Press',
    ISBN: '9780000000002',
  },
  { ...WARM_UP_ITEM, id: 'warm-up-paper', type: 'paper-conference', 'container-title': 'Proceedings of the Example Conference' },
  {
    ...WARM_UP_ITEM,
    id: 'warm-up-preprint',
    type: 'article',
    genre: 'Preprint',
    'container-title': 'bioRxiv',
    volume: undefined,
  },
];

/**
 * One record of each kind of work rendered in every format, one format a turn: the first real record then
 * runs compiled code (a first render takes about twice as long as the next), and an answer that arrives
 * meanwhile waits for one render at most, not for all of them. Never rejects.
 */
export async function warmUp(renderer: CitationRenderer): Promise<void> {
  try {
    for (const item of [WARM_UP_ITEM, ...WARM_UP_KINDS]) {
      for (const format of CITATION_FORMATS) {
        await nextTurn();
        renderer.render(item, 'text', [format]);
        warmUpRenders++;
      }
    }
  } catch (error) {
    // Nobody awaits a warm-up a request started: a rejection here would be unhandled and end the process.
    logger.warn('citation styles not warmed up', { error: error as Error });
  }
}

/**
 * The renderer built now, at start-up, and one record of each kind of work rendered with it so that the
 * first search's rendering runs compiled code. Logs how long it took; never rejects (a failed build is
 * tried again by the first citation search, through `citationRenderer`).
 */
export async function prepareCitationRenderer(): Promise<void> {
  const started = performance.now();
  try {
    await citationRenderer();
    await warming;
    logger.info('citation styles built', { ms: Math.round(performance.now() - started) });
  } catch (error) {
    logger.error('citation styles could not be built at start-up', { error: error as Error });
  }
}

/** Each format's CSL style, as pinned in the style pack. */
export async function styleSources(): Promise<Record<CitationFormat, string>> {
  // pack.json alone: the five formats' styles are pinned, and need none of the catalogue's 10,000 styles.
  const pack = await loadStylePack();
  const sources = {} as Record<CitationFormat, string>;
  for (const format of CITATION_FORMATS) sources[format] = pack.pinnedStyle(STYLE_OF[format].pinned);
  return sources;
}

async function buildRenderer(): Promise<CitationRenderer> {
  const [{ default: CSL }, pack, sources] = await Promise.all([import('citeproc'), loadStylePack(), styleSources()]);
  // The two locales the five styles are written in, pinned with them; citeproc asks for no other.
  const locales: Record<string, string> = { 'en-US': pack.pinnedLocale('en-US'), 'en-GB': pack.pinnedLocale('en-GB') };
  indexMacroLookups(CSL);
  // citeproc asks for an item by id while rendering it; each render puts its one item here first.
  const items = new Map<string, CslItem>();
  const sys = {
    retrieveLocale: (lang: string) => locales[lang],
    retrieveItem: (id: string) => items.get(id),
  };
  const engines = {} as Record<CitationFormat, Engine>;
  for (const format of CITATION_FORMATS) {
    // One style per turn: a response that arrived during the previous build is read before the next.
    await nextTurn();
    const engine = new CSL.Engine(sys, forOneEntry(labelsOnlyPreprints(sources[format])), STYLE_OF[format].locale, true);
    // citeproc would otherwise wrap DOIs and URLs in markup of its own.
    engine.opt.development_extensions.wrap_url_and_doi = false;
    engines[format] = engine;
  }
  let renders = 0;
  return {
    engines,
    render(item, markup = 'text', formats = CITATION_FORMATS) {
      // A record with neither a title nor a container gives strings such as "(n.d.).": no citation at all.
      const named = (field: unknown) => typeof field === 'string' && field.trim() !== '';
      if (!named(item.title) && !named(item['container-title'])) return {};
      // A fresh id per render: citeproc keeps what it retrieved by id, and two papers must never share it.
      const id = `r${++renders}`;
      items.set(id, withCutMark({ ...item, id }));
      try {
        const citations: Citations = {};
        for (const format of formats) {
          const entry = entryOf(engines[format], id, format, markup);
          if (entry) citations[format] = item[AUTHORS_CUT] ? etAl(entry) : entry;
        }
        return citations;
      } finally {
        items.delete(id);
      }
    },
  };
}

/**
 * The author a cut list ends with while it renders (a private-use character, which no record holds): with
 * it the style renders more authors than the index shows, so that a style that shortens long lists ends
 * them with its "et al." itself, and one that prints every author prints it where etAl puts "et al.".
 */
const CUT_MARK = '\uE000';

/** The record to render: a cut author list (AUTHORS_CUT) with the mark after the authors shown. */
export function withCutMark(item: CslItem): CslItem {
  if (!item[AUTHORS_CUT] || !Array.isArray(item.author)) return item;
  return { ...item, author: [...item.author, { family: CUT_MARK }] };
}

/** The mark, with the "and" or "&" a style put before it, as its delimiter, and a full stop after it. */
const MARKED = /(,)?\s*(?:(?:&#38;|&amp;|&|and)\s+)?((?:<[^>/]*>)*)\uE000((?:<\/[^>]*>)*)(?:\.(?!\.))?/g;

/**
 * An entry of a record whose author list the index cut: "et al." where the style printed the mark ("Kermany,
 * D. S., Goldbaum, M., et al. (2018)", never "Kermany, D. S., & Goldbaum, M." as if they were all), and
 * nothing where the style shortened the list itself (its own "et al." already says it).
 */
export function etAl(entry: string): string {
  return entry
    .replace(MARKED, (_whole, comma?: string, open = '', close = '') => `${comma ? ',' : ''} ${open}et al.${close}`)
    .replace(/\uE000/g, '');
}

/**
 * The style as it renders one bibliography entry at a time, as `render` uses it: without its sort keys
 * (an order of one entry) and with a one-variable citation layout. citeproc otherwise computes every new
 * item's sort keys and renders its in-text citation to look for ambiguity among the items it holds, over
 * half the time of a render, for nothing when it holds one item: no sort order, no ambiguity, so the same
 * entry (a test compares 60 works' citations with those the unchanged styles render).
 */
export function forOneEntry(xml: string): string {
  return xml
    .replace(/<citation\b[^>]*>[\s\S]*?<\/citation>/, '<citation><layout><text variable="title"/></layout></citation>')
    .replace(/(<bibliography\b[^>]*>)\s*<sort>[\s\S]*?<\/sort>/, '$1');
}

/** One bibliography entry, or undefined when the style renders nothing for the item (or citeproc throws). */
/**
 * Cite Them Right's CSL style labels "[Preprint]" every journal article that has neither volume nor pages:
 * a news item, an article online before its issue, and every record built from the index (which never
 * gives them). Labelled here only what is a preprint: CSL's `article` (Crossref's posted content). The one
 * change made to a published style; a test checks that it applies and nothing else changes.
 */
export function labelsOnlyPreprints(xml: string): string {
  return xml.replace(
    /<if type="article article-journal" match="any">(<choose><if match="none" variable="page volume"><text value="Preprint")/,
    '<if type="article" match="any">$1',
  );
}

function entryOf(engine: Engine, id: string, format: CitationFormat, markup: CitationMarkup): string | undefined {
  try {
    return renderEntry(engine, id, markup, { numeric: format === 'Vancouver' });
  } catch (error) {
    logger.warn('citation not rendered', { format, error: error as Error });
    return undefined;
  }
}

/**
 * The entry of the record an engine holds under `id` (sys.retrieveItem gives it), as text or inline HTML:
 * its bibliography entry, or for a style without a bibliography (some note styles) its note; undefined when
 * the style renders nothing. Throws what citeproc throws.
 */
export function renderEntry(
  engine: Engine,
  id: string,
  markup: CitationMarkup,
  style: { numeric: boolean; bibliography?: boolean },
): string | undefined {
  // Switched only when it changes: citeproc rebuilds its output decorations on every call.
  if (engine.opt.mode !== markup) engine.setOutputFormat(markup);
  // The engine's registry then holds this item alone: the previous one is dropped, so a paper's entry
  // never depends on another's (APA's "2020a", Vancouver's numbering) and the engine holds one paper at most.
  engine.updateItems([id]);
  let entry: string | undefined;
  if (style.bibliography === false) {
    entry = engine.makeCitationCluster([{ id }]);
  } else {
    const bibliography = engine.makeBibliography();
    entry = bibliography ? bibliography[1][0] : undefined;
  }
  const tidied = entry === undefined ? '' : tidyEntry(entry, markup, style.numeric);
  return tidied === '' ? undefined : tidied;
}

/**
 * One entry as text or inline HTML: citeproc's line breaks and `csl-entry` wrapper removed (and a numbered
 * style's margin division), so that it can be put inside any element: only inline markup remains (<i>, <b>,
 * <span style="font-variant:small-caps;">, <sup>, <sub>) and characters escaped as HTML (&#38;). A numbered
 * style's number goes too: it only means something in a list, and the response numbers its own lists.
 */
export function tidyEntry(entry: string, markup: CitationMarkup, numeric: boolean): string {
  let out = entry.replace(/\s+/g, ' ').trim();
  if (markup === 'html') {
    out = out.replace(/^<div class="csl-entry">\s*([\s\S]*?)\s*<\/div>$/, '$1');
    if (numeric) out = out.replace(/^<div class="csl-left-margin">[\s\S]*?<\/div>\s*/, '');
    out = out.replace(/^<div class="csl-right-inline">\s*([\s\S]*?)\s*<\/div>$/, '$1').trim();
    // A style that sets parts of an entry as blocks (display="block", "indent", "left-margin") gets them as
    // inline spans of the same class, a space apart: an entry is put inside any element, a <p> or an <li>.
    out = out
      .replace(/<div\b([^>]*)>/g, '<span$1>')
      .replace(/<\/div>\s*/g, '</span> ')
      .replace(/\s+$/, '');
  }
  // A text the index cut ends in "…": a style's full stop after it says nothing more.
  out = out.replace(/…\./g, '…');
  return numeric ? out.replace(/^(?:\[\d+\]|\(\d+\)|\d+\.?)\s*/, '') : out;
}

/** One of the five formats' entries as plain text (Vancouver is the numbered one). */
export function tidy(entry: string, format: CitationFormat): string {
  return tidyEntry(entry, 'text', format === 'Vancouver');
}
