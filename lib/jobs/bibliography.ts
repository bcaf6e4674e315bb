/**
 * A submitted `bibliography` as the list of references a job works on: one BibTeX file, one RIS file, or
 * a pasted list. BibTeX and RIS records become the text of a reference as a reader would write it
 * (authors, year, title, venue, volume, pages, DOI), which the reference matcher reads like any pasted
 * reference (a DOI in it is looked up directly); a pasted list is split into paragraphs, or into lines
 * when it has no blank line. This is the job API's own reading of the three forms; the citation checker's
 * bibliography parser is meant to replace it (docs/decisions.md §27).
 */

/** Which form a bibliography is in. */
export type BibliographyForm = 'bibtex' | 'ris' | 'list';

export function bibliographyForm(text: string): BibliographyForm {
  if (/^\s*@[A-Za-z]+\s*[{(]/m.test(text)) return 'bibtex';
  if (/^TY {2}- /m.test(text)) return 'ris';
  return 'list';
}

/** TeX as plain text: accents and escapes to their characters, braces and commands dropped. */
function detex(value: string): string {
  const accents: Record<string, string> = {
    '"': '\u0308',
    "'": '\u0301',
    '`': '\u0300',
    '^': '\u0302',
    '~': '\u0303',
    c: '\u0327',
  };
  return value
    .replace(/\\([`'^"~c])\s*\{?\\?([A-Za-z])\}?/g, (_, accent: string, letter: string) =>
      `${letter}${accents[accent] ?? ''}`.normalize('NFC'),
    )
    .replace(/\\(?:textit|emph|textbf|mathrm|url)\s*/g, '')
    .replace(/\\([&%$#_{}])/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The fields of one BibTeX entry's body (after its key), by lower-case name; values in braces or quotes, or bare. */
function bibtexFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const name = /\s*,?\s*([A-Za-z][\w-]*)\s*=\s*/y;
  let at = 0;
  while (at < body.length) {
    name.lastIndex = at;
    const match = name.exec(body);
    if (!match) break;
    let i = name.lastIndex;
    let value = '';
    if (body[i] === '{' || body[i] === '"') {
      const close = body[i] === '{' ? '}' : '"';
      let depth = 0;
      const start = i + 1;
      for (i += 1; i < body.length; i += 1) {
        if (body[i] === '\\') i += 1;
        else if (body[i] === '{') depth += 1;
        else if (body[i] === '}' && depth > 0) depth -= 1;
        else if (body[i] === close && depth === 0) break;
      }
      value = body.slice(start, i);
      i += 1;
    } else {
      const end = body.slice(i).search(/[,}]|$/);
      value = body.slice(i, i + end);
      i += end;
    }
    fields[(match[1] as string).toLowerCase()] = detex(value);
    at = i;
  }
  return fields;
}

/** A reference's text from its parts: "Authors (year). Title. Venue, volume, pages. https://doi.org/…". */
function referenceText(parts: {
  authors: string[];
  year?: string;
  title?: string;
  venue?: string;
  volume?: string;
  pages?: string;
  doi?: string;
}): string {
  const head = [parts.authors.join(', '), parts.year ? `(${parts.year})` : ''].filter(Boolean).join(' ');
  const venue = [parts.venue, parts.volume, parts.pages].filter(Boolean).join(', ');
  return [head, parts.title, venue, parts.doi ? `https://doi.org/${parts.doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')}` : '']
    .filter(Boolean)
    .join('. ');
}

function fromBibtex(text: string): string[] {
  const references: string[] = [];
  for (const entry of text.split(/^\s*(?=@[A-Za-z]+\s*[{(])/m)) {
    const head = /^@([A-Za-z]+)\s*[{(]\s*([^,\s]*)\s*,/.exec(entry.trim());
    if (!head || /^(comment|preamble|string)$/i.test(head[1] as string)) continue;
    const fields = bibtexFields(entry.trim().slice(head[0].length));
    references.push(
      referenceText({
        authors: (fields.author ?? fields.editor ?? '').split(/\s+and\s+/).filter(Boolean),
        year: fields.year ?? fields.date?.slice(0, 4),
        title: fields.title,
        venue: fields.journal ?? fields.journaltitle ?? fields.booktitle ?? fields.publisher,
        volume: fields.volume,
        pages: fields.pages?.replace(/-+/g, '–'),
        doi: fields.doi,
      }) || entry.trim(),
    );
  }
  return references;
}

function fromRis(text: string): string[] {
  const references: string[] = [];
  for (const record of text.split(/^ER {2}-.*$/m)) {
    const tags: Record<string, string[]> = {};
    for (const line of record.split(/\r?\n/)) {
      const match = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line);
      if (!match) continue;
      const tag = match[1] as string;
      tags[tag] = [...(tags[tag] ?? []), (match[2] as string).trim()];
    }
    if (!tags.TY) continue;
    const first = (...names: string[]) => names.map((name) => tags[name]?.[0]).find(Boolean);
    const pages = [first('SP'), first('EP')].filter(Boolean).join('–');
    references.push(
      referenceText({
        authors: [...(tags.AU ?? []), ...(tags.A1 ?? [])],
        year: first('PY', 'Y1', 'DA')?.slice(0, 4),
        title: first('TI', 'T1'),
        venue: first('T2', 'JF', 'JO', 'BT'),
        volume: first('VL'),
        pages: pages || undefined,
        doi: first('DO'),
      }) || record.trim(),
    );
  }
  return references;
}

function fromList(text: string): string[] {
  const paragraphs = text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean);
  // Blank lines between references: each paragraph is one, its line breaks kept (the reader joins a word
  // hyphenated across them: lib/citations/model/text.ts). Else one reference a line.
  return paragraphs.length > 1
    ? paragraphs
    : text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
}

/** The references a bibliography holds, in order. */
export function splitBibliography(text: string): string[] {
  const form = bibliographyForm(text);
  if (form === 'bibtex') return fromBibtex(text);
  if (form === 'ris') return fromRis(text);
  return fromList(text);
}
