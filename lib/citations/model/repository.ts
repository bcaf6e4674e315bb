/**
 * The repositories whose DOIs DataCite registers and that references and the index name most often: where a
 * dataset, software or preprint is deposited. One work is often deposited twice (a Dryad dataset and its
 * Zenodo copy, a figshare preprint and its arXiv version), under two DOIs and one title: a reference or a
 * search result that names one repository is not the record of another (match/ compares them).
 */
import { normalizeText } from './text.js';
import type { CrossrefWork } from './work.js';

export interface Repository {
  name: string;
  /** How a text names it, on normalised words ("datadryad org", "open science framework"). */
  named: RegExp;
  /** The DOI prefixes DataCite registers for it. */
  prefixes: readonly string[];
}

export const REPOSITORIES: readonly Repository[] = [
  { name: 'arXiv', named: /\barxiv\b/, prefixes: ['10.48550'] },
  { name: 'Zenodo', named: /\bzenodo\b/, prefixes: ['10.5281'] },
  { name: 'Dryad', named: /\b(?:datadryad|dryad)\b/, prefixes: ['10.5061'] },
  { name: 'figshare', named: /\bfigshare\b/, prefixes: ['10.6084'] },
  { name: 'PANGAEA', named: /\bpangaea\b/, prefixes: ['10.1594'] },
  { name: 'Dataverse', named: /\bdataverse\b/, prefixes: ['10.7910'] },
  { name: 'GBIF', named: /\b(?:gbif|global biodiversity information facility)\b/, prefixes: ['10.15468'] },
  { name: 'OSF', named: /\b(?:osf|open science framework)\b/, prefixes: ['10.17605'] },
];

/** The repositories a text names (a reference, the index's venue and site), in REPOSITORIES' order. */
export function repositoriesNamed(text: string): Repository[] {
  const words = normalizeText(text);
  return REPOSITORIES.filter((repository) => repository.named.test(words));
}

/**
 * The repository a work is deposited in, by its DOI's prefix, else as its publisher, link or container
 * names it (Dryad also registers DOIs under other prefixes); undefined for a work none of them places in
 * one, a journal article among them.
 */
export function repositoryOf(work: CrossrefWork): Repository | undefined {
  const prefix = work.DOI.split('/')[0];
  const byPrefix = REPOSITORIES.find((repository) => repository.prefixes.includes(prefix ?? ''));
  return byPrefix ?? repositoriesNamed([work.publisher, work.URL, ...(work['container-title'] ?? [])].join(' '))[0];
}
