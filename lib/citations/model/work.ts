/** A bibliographic work as Crossref gives it (and DataCite's, read into the same shape): what matching and the records read. */
import type { RECORD_AGENCIES } from '../../contract/cite-resolve.js';

/** A person as Crossref records one: usually given + family, sometimes only a name (an organisation). */
export interface CrossrefPerson {
  given?: string;
  family?: string;
  name?: string;
}

/**
 * A work as Crossref gives it (the fields the lookup asks for with `select`); a DataCite record is read into
 * the same shape (sources/datacite.ts), so that one matcher and one CSL mapping serve both.
 */
export interface CrossrefWork {
  DOI: string;
  /** The registration agency the record comes from; absent: Crossref. */
  agency?: RecordAgency;
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
  /** A dataset's or software's version (DataCite). */
  version?: string;
  /** The works a notice updates (Crossref: an erratum, a correction, a retraction names the work it is about). */
  'update-to'?: { DOI?: string; type?: string }[];
}

/** The free sources of records, each a DOI registration agency (the contract's list). */
export type RecordAgency = (typeof RECORD_AGENCIES)[number];

/** The agency a work's record comes from. */
export function agencyOf(work: CrossrefWork): RecordAgency {
  return work.agency ?? 'crossref';
}

/** The agency's name as written in a reason ("Crossref", "DataCite"). */
export function agencyName(agency: RecordAgency): string {
  return agency === 'datacite' ? 'DataCite' : 'Crossref';
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
