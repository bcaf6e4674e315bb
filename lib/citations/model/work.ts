/** A bibliographic work as Crossref gives it (and DataCite's, read into the same shape): what matching and the records read. */
import type { RECORD_AGENCIES } from '../../contract/cite-resolve.js';

/** A person as Crossref records one: usually given + family, sometimes only a name (an organisation). */
export interface CrossrefPerson {
  given?: string;
  family?: string;
  name?: string;
}

/**
 * One entry of Crossref's update metadata: on a work, `updated-by` names each notice about it (a correction,
 * a retraction, an expression of concern…); on a notice, `update-to` names the work it updates. Crossref
 * carries Retraction Watch's records there too, with `source: "retraction-watch"` (else `"publisher"`).
 */
export interface CrossrefUpdate {
  DOI?: string;
  type?: string;
  label?: string;
  source?: string;
  updated?: { 'date-parts'?: (number | null)[][]; 'date-time'?: string };
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
  /** The container's abbreviated names ("Phys. Rev. B"), as references often cite it. */
  'short-container-title'?: string[];
  /** When the work came out in print and online: a reference may cite either year. */
  'published-print'?: { 'date-parts'?: (number | null)[][] };
  'published-online'?: { 'date-parts'?: (number | null)[][] };
  /** The notices about this work (corrections, retractions…), and for a notice the work it updates. */
  'updated-by'?: CrossrefUpdate[];
  'update-to'?: CrossrefUpdate[];
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
