/**
 * The five citation formats rendered locally from a paper's CSL-JSON record by citeproc-js (the CSL
 * processor of @citation-js/plugin-csl), so that a paper Crossref knows needs no paid cite call.
 *
 * Building a citeproc engine parses its whole style and is slow for the large ones (APA and Chicago take
 * most of a second each; see the README's benchmark), while rendering one entry with a built engine takes
 * a few milliseconds. So each style's engine is built once per container, on the first citation search,
 * while that request waits on the network: the styles are built one per turn of the event loop, so that
 * answers arriving meanwhile are still read. A failed build is not kept: the next request tries again.
 *
 * Styles: MLA 9th edition and Chicago 18th edition notes-bibliography from the CSL styles repository
 * (lib/crossref/styles, CC BY-SA 3.0), and the APA 7th edition, Cite Them Right 12th edition (harvard1)
 * and NLM/Vancouver styles that @citation-js/plugin-csl bundles.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine } from 'citeproc';
import { CITATION_FORMATS, type CitationFormat, type Citations } from '../contract/cite-search.js';
import type { CslItem } from './exports.js';

/** Renders one record in every format; throws when citeproc cannot render it. */
export interface CitationRenderer {
  render(item: CslItem): Citations;
}

/** The CSL style of each format: a style plugin-csl bundles, or one of lib/crossref/styles. */
const STYLE_OF: Record<CitationFormat, { bundled: 'apa' | 'harvard1' | 'vancouver' } | { shipped: 'mla' | 'chicago' }> = {
  MLA: { shipped: 'mla' },
  APA: { bundled: 'apa' },
  Chicago: { shipped: 'chicago' },
  Harvard: { bundled: 'harvard1' },
  Vancouver: { bundled: 'vancouver' },
};

const LOCALE = 'en-US';

let building: Promise<CitationRenderer> | undefined;

/**
 * The renderer, its engines built on first call and kept for the container's life. Call it as early as
 * possible (before the first network wait) and await it when a record needs rendering.
 */
export function citationRenderer(): Promise<CitationRenderer> {
  building ??= buildRenderer().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

async function buildRenderer(): Promise<CitationRenderer> {
  const [{ default: CSL }, { default: bundled }, { default: locales }, shipped] = await Promise.all([
    import('citeproc'),
    import('@citation-js/plugin-csl/lib/styles.json', { with: { type: 'json' } }),
    import('@citation-js/plugin-csl/lib/locales.json', { with: { type: 'json' } }),
    import('./styles/styles.generated.js'),
  ]);
  // citeproc asks for an item by id while rendering it; each render puts its one item here first.
  const items = new Map<string, CslItem>();
  const sys = {
    retrieveLocale: (lang: string) => (locales as Record<string, string>)[lang],
    retrieveItem: (id: string) => items.get(id),
  };
  const engines = {} as Record<CitationFormat, Engine>;
  for (const format of CITATION_FORMATS) {
    // One style per turn: a response that arrived during the previous build is read before the next.
    await nextTurn();
    const style = STYLE_OF[format];
    const xml = 'bundled' in style ? (bundled as Record<string, string>)[style.bundled] : shipped[style.shipped];
    if (!xml) throw new Error(`The ${format} style is missing`);
    const engine = new CSL.Engine(sys, xml, LOCALE, true);
    engine.setOutputFormat('text');
    // citeproc would otherwise wrap DOIs and URLs in markup of its own.
    engine.opt.development_extensions.wrap_url_and_doi = false;
    engines[format] = engine;
  }
  let renders = 0;
  return {
    render(item) {
      // A fresh id per render: citeproc keeps what it retrieved by id, and two papers must never share it.
      const id = `r${++renders}`;
      items.set(id, { ...item, id });
      try {
        const citations: Citations = {};
        for (const format of CITATION_FORMATS) citations[format] = entryOf(engines[format], id, format);
        return citations;
      } finally {
        items.delete(id);
      }
    },
  };
}

function entryOf(engine: Engine, id: string, format: CitationFormat): string {
  // The engine's registry then holds this item alone: the previous one is dropped, so a paper's entry
  // never depends on another's (APA's "2020a", Vancouver's numbering) and the engine holds one paper at most.
  engine.updateItems([id]);
  const bibliography = engine.makeBibliography();
  const entry = bibliography ? bibliography[1][0] : undefined;
  if (!entry) throw new Error(`citeproc gave no ${format} entry`);
  return tidy(entry, format);
}

/**
 * One bibliography entry as plain text: citeproc's line break removed and, for Vancouver (a numbered
 * style), the list number, which only means something in a list; the response numbers its own.
 */
export function tidy(entry: string, format: CitationFormat): string {
  const text = entry.replace(/\s+/g, ' ').trim();
  return format === 'Vancouver' ? text.replace(/^\d+\.\s*/, '') : text;
}
