/** A bibliographic work as Crossref (and DataCite, converted) gives it: what matching and the records read. */

/** A person as Crossref records one: usually given + family, sometimes only a name (an organisation). */
export interface CrossrefPerson {
  given?: string;
  family?: string;
  name?: string;
}

/** A Crossref work: the fields the lookup asks for with `select`. */
export interface CrossrefWork {
  DOI: string;
  title?: string[];
  subtitle?: string[];
  author?: CrossrefPerson[];
  editor?: CrossrefPerson[];
  issued?: { 'date-parts'?: (number | null)[][] };
  'container-title'?: string[];
  type?: string;
  volume?: string;
  issue?: string;
  page?: string;
  publisher?: string;
  ISBN?: string[];
  ISSN?: string[];
  URL?: string;
}

/** The year a work was first issued, if Crossref knows it. */
export function workYear(work: CrossrefWork): number | null {
  const year = work.issued?.['date-parts']?.[0]?.[0];
  return typeof year === 'number' ? year : null;
}

/** The work's title as one line, with its subtitle when Crossref keeps one apart. */
export function workTitles(work: CrossrefWork): string[] {
  const title = work.title?.[0];
  if (!title) return [];
  const subtitle = work.subtitle?.[0];
  return subtitle ? [title, `${title}: ${subtitle}`] : [title];
}
