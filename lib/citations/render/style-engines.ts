/**
 * Any style of the CSL styles repository (lib/citations/render/style-catalogue.ts), rendered on demand: the
 * `styles` of citation search and citation resolving, and a reference list in a style beyond the five.
 *
 * A style's engine is built on its first use in a container (its XML read from the data shipped beside the
 * code, not from the bundle), then kept: a dependent style is its parent's XML in the dependent's locale,
 * so every journal that borrows one parent in one language shares one engine. At most STYLE_ENGINES_MAX
 * engines are kept, the least recently used dropped first: an engine holds its parsed style (a few MB for
 * the largest styles; `npm run bench` measures it), and a container that served every style would
 * otherwise grow without bound. The five formats of `citations` keep their own pinned engines (render.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Engine } from 'citeproc';
import type { CitationMarkup } from '../../contract/cite-search.js';
import { AppError } from '../../errors.js';
import { logger } from '../../logger.js';
import { AUTHORS_CUT, type CslItem } from '../model/csl.js';
import { indexMacroLookups } from './citeproc-macro-index.js';
import { etAl, forOneEntry, renderEntry, WARM_UP_ITEM, withCutMark } from './render.js';
import { type Catalogue, closeStyleIds, loadCatalogue } from './style-catalogue.js';

/** Styles a request may ask for at once (the `styles` field). */
export const STYLES_MAX = 5;

/** Engines kept per container; see the module comment. */
export const STYLE_ENGINES_MAX = 12;

/** One paper's citations in the asked styles, by style id; a style that renders nothing is left out. */
export type StyledCitations = Record<string, string>;

interface StyleEngine {
  engine: Engine;
  /** Whether the style has a bibliography; a notes-only style renders its (first) note instead. */
  bibliography: boolean;
  /** Numeric styles number their entries; the number means nothing outside a list. */
  numeric: boolean;
  /** Whether a warm-up record was rendered with it (warmUpStyle). */
  warmed?: boolean;
}

const engines = new Map<string, Promise<StyleEngine>>();
// citeproc asks for an item by id while rendering it; each render puts its one item here first.
const items = new Map<string, CslItem>();
let renders = 0;
let warmUpRenders = 0;

/**
 * The asked ids as the catalogue spells them (lower case; a style's full URL is accepted), or a 400
 * naming `styles`, each unknown id with the closest known ones.
 */
export async function checkStyleIds(ids: readonly string[], field = 'styles'): Promise<string[]> {
  if (ids.length === 0) return [];
  const catalogue = await loadCatalogue();
  const problems: string[] = [];
  const known = ids.map((asked, i) => {
    const style = catalogue.get(asked.trim().toLowerCase()) ?? catalogue.get(asked.trim());
    if (style) return style.id;
    const close = closeStyleIds(catalogue, asked.trim().toLowerCase(), 3);
    const hint = close.length > 0 ? `; close ids: ${close.join(', ')}` : '';
    problems.push(
      `${field}${ids.length > 1 || field === 'styles' ? `.${i}` : ''}: no CSL style "${asked}"${hint} (POST /v1/cite/styles finds ids)`,
    );
    return '';
  });
  if (problems.length > 0) throw new AppError('INVALID_REQUEST', { details: problems.join('; ') });
  return [...new Set(known)];
}

async function buildEngine(catalogue: Catalogue, independentId: string, xml: string, locale: string): Promise<StyleEngine> {
  const { default: CSL } = await import('citeproc');
  indexMacroLookups(CSL);
  // A build can hold the event loop for a while: answers that arrived meanwhile are read first.
  await nextTurn();
  const bibliography = /<bibliography\b/.test(xml);
  const sys = {
    retrieveLocale: (lang: string) => catalogue.locale(lang),
    retrieveItem: (id: string) => items.get(id),
  };
  const started = performance.now();
  const engine = new CSL.Engine(sys, bibliography ? forOneEntry(xml) : xml, locale, true);
  // citeproc would otherwise wrap DOIs and URLs in markup of its own.
  engine.opt.development_extensions.wrap_url_and_doi = false;
  logger.info('citation style built', { style: independentId, locale, ms: Math.round(performance.now() - started) });
  return { engine, bibliography, numeric: /citation-format="numeric"/.test(xml) };
}

/** The style's engine, built on first use and kept (least recently used dropped beyond the bound). */
async function engineFor(id: string): Promise<StyleEngine> {
  const catalogue = await loadCatalogue();
  const style = catalogue.styleForRendering(id);
  if (!style) throw new Error(`No CSL style "${id}"`);
  const key = `${style.independent_id}|${style.locale}`;
  let engine = engines.get(key);
  if (engine) {
    engines.delete(key);
  } else {
    engine = buildEngine(catalogue, style.independent_id, style.xml, style.locale);
    // A failed build is not kept: the next request tries again.
    engine.catch(() => engines.delete(key));
  }
  engines.set(key, engine);
  while (engines.size > STYLE_ENGINES_MAX) engines.delete(engines.keys().next().value as string);
  return engine;
}

/**
 * Starts building the engines of these styles (ids as checkStyleIds gave them), each warmed up once built
 * (warmUpStyle): a request that renders them once its lookups are answered finds them built during the
 * wait, not after it. A build that fails is tried again, and logged, when renderStyles asks for it. The
 * promise (never rejected) is for tests: a request does not wait for it.
 */
export function prepareStyleEngines(styleIds: readonly string[]): Promise<void> {
  return Promise.all(styleIds.map((id) => engineFor(id).then(warmUpStyle, () => undefined))).then(() => undefined);
}

/**
 * A record rendered once with a newly built engine, on a turn of its own, while the request that asked for
 * it most likely waits on the network still: its first real record then runs compiled code. Never throws.
 */
async function warmUpStyle(style: StyleEngine): Promise<void> {
  if (style.warmed) return;
  style.warmed = true;
  await nextTurn();
  try {
    renderOne(style, WARM_UP_ITEM, 'text');
    warmUpRenders++;
  } catch {
    // A style that cannot render the warm-up record says so when a request's record is rendered.
  }
}

/** Warm-up renders of the styles beyond the five made in this container so far (for tests). */
export function styleWarmUpRenders(): number {
  return warmUpRenders;
}

/** Engines built and kept now (for the benchmark and tests). */
export function keptStyleEngines(): number {
  return engines.size;
}

function renderOne(style: StyleEngine, item: CslItem, markup: CitationMarkup): string | undefined {
  const id = `s${++renders}`;
  items.set(id, withCutMark({ ...item, id }));
  try {
    const entry = renderEntry(style.engine, id, markup, style);
    return entry && item[AUTHORS_CUT] ? etAl(entry) : entry;
  } finally {
    items.delete(id);
  }
}

const named = (field: unknown) => typeof field === 'string' && field.trim() !== '';

/**
 * Each record's citations in every asked style (ids as checkStyleIds gave them), in record order; an
 * undefined record has none. A style that cannot be built or renders nothing for a record is left out of
 * that record's citations, and the others are kept. Never rejects.
 */
export async function renderStyles(
  records: readonly (CslItem | undefined)[],
  styleIds: readonly string[],
  markup: CitationMarkup = 'text',
): Promise<StyledCitations[]> {
  const styled: StyledCitations[] = records.map(() => ({}));
  for (const id of styleIds) {
    let style: StyleEngine;
    try {
      style = await engineFor(id);
    } catch (error) {
      logger.error('citation style could not be built', { style: id, error: error as Error });
      continue;
    }
    records.forEach((record, i) => {
      // A record with neither a title nor a container gives strings such as "(n.d.).": no citation at all.
      if (!record || !(named(record.title) || named(record['container-title']))) return;
      try {
        const entry = renderOne(style, record, markup);
        if (entry) (styled[i] as StyledCitations)[id] = entry;
      } catch (error) {
        logger.warn('citation not rendered', { style: id, error: error as Error });
      }
    });
  }
  return styled;
}
