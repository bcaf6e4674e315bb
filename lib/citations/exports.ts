/**
 * Reference-manager exports for citation search: a CSL-JSON record per paper, from Crossref when a work
 * matched and else from what the scholarly index gave, rendered to BibTeX and RIS by citation-js (its
 * core and its BibTeX and RIS plugins). Its CSL plugin is left out on purpose: it renders bibliographies
 * in citation styles through citeproc, which the exports do not need and which would be 560 KiB of the
 * bundle. citation-js is imported only when a request asks for BibTeX or RIS, and then once per container.
 * A record it cannot render costs that paper only the format, never the answer.
 */
import type { ExportFormat, PaperExports } from '../contract/cite-search.js';
import { type CslItem, withoutEmpty } from './csl.js';

type CiteConstructor = typeof import('@citation-js/core').Cite;

let citationJs: Promise<CiteConstructor> | undefined;

/**
 * citation-js with its BibTeX and RIS plugins, loaded on first use and kept for the container's life. A
 * failed load is not kept: the next request tries again rather than failing for the container's life.
 */
export function loadCitationJs(): Promise<CiteConstructor> {
  citationJs ??= (async () => {
    const { Cite } = await import('@citation-js/core');
    // The plugins register themselves with core when imported.
    await Promise.all([import('@citation-js/plugin-bibtex'), import('@citation-js/plugin-ris')]);
    const { plugins } = (await import('@citation-js/core')) as unknown as {
      plugins: { config: { get(name: string): unknown } };
    };
    // UTF-8 BibTeX, which biber and BibTeX since 0.99 read: the ASCII-only default writes LaTeX escapes
    // for Latin letters and silently drops every other character (an Arabic name, a Chinese title, the
    // U+2010 hyphen of "Cavaco‐Paulo").
    (plugins.config.get('@bibtex') as { format: { asciiOnly: boolean } }).format.asciiOnly = false;
    return Cite;
  })().catch((error: unknown) => {
    citationJs = undefined;
    throw error;
  });
  return citationJs;
}

type RisEntry = Record<string, string | number | (string | number)[]>;

/**
 * citation-js's RIS records, put where RIS readers look: dates as RIS writes them (`YYYY/MM/DD/`, zero
 * padded: "2011/3/22/" is read as no date by some), a journal's name also in `JF` (its full name; `T2`
 * alone is read as an abbreviation by bibutils), and a corporate author with the trailing comma that
 * marks a name not to be split into family and given names.
 */
function risFixed(entry: RisEntry, csl: CslItem): RisEntry {
  const fixed: RisEntry = { ...entry };
  const date = typeof entry.DA === 'string' ? /^(\d{4})\/(\d{0,2})\/(\d{0,2})\/?(.*)$/.exec(entry.DA) : null;
  if (date) {
    const pad = (part: string | undefined) => (part ? part.padStart(2, '0') : '');
    fixed.DA = `${date[1]}/${pad(date[2])}/${pad(date[3])}/${date[4] ?? ''}`;
  }
  const container = typeof csl['container-title'] === 'string' ? csl['container-title'] : undefined;
  if (entry.TY === 'JOUR' && container && fixed.JF === undefined) fixed.JF = container;
  // A dataset's repository, which citation-js leaves out: RIS's secondary title.
  if (container && [fixed.T2, fixed.JF, fixed.C3, fixed.BT].every((value) => value === undefined)) fixed.T2 = container;
  const literals = new Set(
    [csl.author, csl.editor]
      .flatMap((people) => (Array.isArray(people) ? people : []))
      .flatMap((person) => (typeof person?.literal === 'string' ? [person.literal] : [])),
  );
  for (const tag of ['AU', 'A2', 'ED'] as const) {
    const names = entry[tag];
    if (names === undefined) continue;
    fixed[tag] = [names].flat().map((name) => (typeof name === 'string' && literals.has(name) ? `${name},` : name));
  }
  return fixed;
}

/**
 * RIS text from citation-js's RIS records. Its own text output breaks every value after 70 characters,
 * mid-word, and readers (citation-js's own among them) join the pieces with a space: "surveyi ng". One
 * line per value, as the RIS format's tag lines are, keeps the title whole.
 */
function risText(entries: RisEntry[]): string {
  return entries
    .map((entry) => {
      const lines = [`TY  - ${entry.TY}`];
      for (const [tag, values] of Object.entries(entry)) {
        if (tag === 'TY') continue;
        for (const value of [values].flat()) lines.push(`${tag}  - ${String(value).replace(/\s*\n\s*/g, ' ')}`);
      }
      lines.push('ER  - ');
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * A BibTeX citation key made of `text`: letters, digits and underscores only, which every BibTeX reader
 * (citation-js's own among them) takes as a key; any other run of characters becomes one underscore.
 * Empty when `text` holds none of them.
 */
export function citationKey(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/**
 * BibTeX counts braces in every value, escaped or not, and a backslash starts a command: one lone brace
 * ends the entry early and breaks every entry after it in the file. citation-js escapes them in titles
 * and the like but writes names and the DOI and URL as they are, so those lose them here: names drop
 * them (a brace or backslash in a name is noise, not a letter), the DOI and URL get their percent-encoded
 * forms, which doi.org resolves to the same work.
 */
const BIBTEX_BREAKERS = /[{}\\]/g;
const PERCENT_ENCODED: Record<string, string> = { '{': '%7B', '}': '%7D', '\\': '%5C' };

/**
 * In UTF-8 output citation-js escapes nothing (its ASCII mode did), and LaTeX reads `& % $ # _` as
 * commands: a title with "R&D" or "50%" would break the document that cites it. They are escaped as
 * LaTeX and every BibTeX reader writes them; braces and backslashes as the text commands that print
 * them, so that they stay letters and every brace in the file is one of a pair.
 */
function latexEscaped(text: string): string {
  return text.replace(/[\\{}&%$#_~^]/g, (char) => {
    if (char === '\\') return '\\textbackslash{}';
    if (char === '~') return '\\textasciitilde{}';
    if (char === '^') return '\\textasciicircum{}';
    // BibTeX counts escaped braces too: a lone "\{" would still end the entry early.
    if (char === '{') return '\\textbraceleft{}';
    if (char === '}') return '\\textbraceright{}';
    return `\\${char}`;
  });
}

function bibtexSafePerson(person: unknown): unknown {
  if (typeof person !== 'object' || person === null) return person;
  const parts = Object.entries(person).map(([part, value]) => [
    part,
    typeof value === 'string' ? latexEscaped(value.replace(BIBTEX_BREAKERS, '').trim()) : value,
  ]);
  const kept = parts.filter(([, value]) => value !== '');
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The item as citation-js should see it to write a BibTeX entry that any reader imports whole, keyed `key`. */
function bibtexSafe(csl: CslItem, key: string): CslItem {
  const item: Record<string, unknown> = { ...structuredClone(csl), 'citation-key': key };
  // BibTeX has no day: citation-js would write `month = {mar 22}`, which biber rejects as a month.
  const issued = item.issued as { 'date-parts'?: unknown[][] } | undefined;
  const parts = issued?.['date-parts']?.[0];
  if (Array.isArray(parts) && parts.length > 2) item.issued = { 'date-parts': [parts.slice(0, 2)] };
  for (const [field, value] of Object.entries(item)) {
    if (field === 'DOI' || field === 'URL') {
      if (typeof value === 'string') item[field] = value.replace(BIBTEX_BREAKERS, (char) => PERCENT_ENCODED[char] ?? '');
    } else if (typeof value === 'string' && field !== 'id' && field !== 'citation-key' && field !== 'type') {
      item[field] = latexEscaped(value);
    } else if (Array.isArray(value) && value.some((person) => typeof person === 'object' && person !== null)) {
      // The name lists (author, editor, …): CSL's only arrays of objects besides dates, which are objects.
      const people = value.map(bibtexSafePerson).filter((person) => person !== undefined);
      item[field] = people.length > 0 ? people : undefined;
    }
  }
  return withoutEmpty(item) as CslItem;
}

/**
 * An entry citation-js writes as `@misc` (a dataset, a generic document) has no field for the container
 * (a dataset's repository, "CRAN contributed packages"), and citation-js leaves it out: it goes in
 * `howpublished`, where BibTeX styles print it for `@misc`.
 */
function withContainer(bibtex: string, csl: CslItem): string {
  const container = csl['container-title'];
  if (typeof container !== 'string' || /^\s*(journal|booktitle|howpublished) = /m.test(bibtex)) return bibtex;
  return bibtex.replace(/\n}$/, `\n\thowpublished = {${latexEscaped(container)}},\n}`);
}

type Rendered = Pick<PaperExports, 'csl_json' | 'bibtex' | 'ris' | 'render_error'>;

/** The formats citation-js renders, each from its own copy of the item. */
const EXPORT_RENDERERS: {
  format: Exclude<ExportFormat, 'csl-json'>;
  name: string;
  render: (Cite: CiteConstructor, csl: CslItem, key: string) => string;
}[] = [
  {
    format: 'bibtex',
    name: 'BibTeX',
    render: (Cite, csl, key) => withContainer(new Cite(bibtexSafe(csl, key)).format('bibtex').trim(), csl),
  },
  {
    format: 'ris',
    name: 'RIS',
    render: (Cite, csl) =>
      risText(
        (new Cite(structuredClone(csl)).format('ris', { format: 'object' }) as unknown as RisEntry[]).map((entry) =>
          risFixed(entry, csl),
        ),
      ),
  },
];

/**
 * The requested exports of one CSL item; the BibTeX entry is keyed `key` (by default made of the item's
 * id). Never rejects: a format citation-js cannot render, or citation-js failing to load, costs only
 * that format, and `render_error` says so; the CSL-JSON record is given all the same.
 */
export async function renderExports(
  csl: CslItem,
  formats: readonly ExportFormat[],
  key: string = citationKey(csl.id) || 'paper',
): Promise<Rendered> {
  const out: Rendered = {};
  if (formats.includes('csl-json')) out.csl_json = csl;
  const rendered = EXPORT_RENDERERS.filter(({ format }) => formats.includes(format));
  if (rendered.length === 0) return out;
  let Cite: CiteConstructor;
  try {
    Cite = await loadCitationJs();
  } catch {
    out.render_error = `The ${rendered.map(({ name }) => name).join(' and ')} renderer could not be loaded; try again`;
    return out;
  }
  const failed: string[] = [];
  for (const { format, name, render } of rendered) {
    try {
      out[format] = render(Cite, csl, key);
    } catch {
      failed.push(name);
    }
  }
  if (failed.length > 0) out.render_error = `The record could not be rendered as ${failed.join(' or ')}`;
  return out;
}
