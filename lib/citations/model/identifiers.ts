/**
 * The identifiers a search result carries in its link: a DOI in a doi.org link or in the path of a
 * publisher's or repository's page (`/doi/10.…`, Springer's `/article/10.…`, `/articles/10.…`, a bioRxiv
 * `/content/10.…v2`, Dryad's `/dataset/doi:10.…`),
 * Nature's article ids (its DOI suffixes), a DOI in a `doi=` or `id=` parameter (PLOS), and an arXiv
 * identifier, whose DOI arXiv registers with DataCite. What a link carries is a candidate only: the work
 * it names is taken for the paper only if the matcher accepts it (match.ts), since a link may point at a
 * comment, an erratum or a supplement of the paper, whose DOI is not the paper's.
 */

/** A DOI's prefix and suffix as it may stand in a path: "10.", a registrant code, "/", then the rest. */
const DOI_START = /(?:^|\/|doi:)(10\.\d{4,9}\/.+)$/i;
/** A whole DOI, as a parameter's value holds one. */
const WHOLE_DOI = /^10\.\d{4,9}\/\S+$/;
/** What publishers put after the DOI in a page's path: a view of the same work, never part of its DOI. */
const TRAILING_VIEW =
  /\/(?:abstract|full|fulltext|full-text|pdf|epdf|pdfdirect|pdfft|meta|summary|html|references|figures|tables|metrics|citedby|info|suppl_file|supplemental|supplementary|media|comments)(?:\/.*)?$/i;
const TRAILING_EXTENSION = /\.(?:pdf|html?|full|abstract|short|long|xml|epub|article-info|article-metrics)$/i;
/** bioRxiv's and medRxiv's version mark after their DOIs ("10.1101/055319v1"). */
const RXIV_VERSION = /(\/(?:\d{4}\.\d{2}\.\d{2}\.)?\d{6,})v\d+$/;
const RXIV_HOST = /(?:^|\.)(?:biorxiv|medrxiv)\.org$/i;
const DOI_HOST = /^(?:www\.|dx\.)?doi\.org$/i;
const NATURE_HOST = /^(?:www\.)?nature\.com$/i;
/** arXiv's identifiers: "2201.06719" (since 2007) and "hep-th/9901001" (before), with an optional version. */
const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?$/;

/** An arXiv identifier's DOI: "2201.06719" → "10.48550/arxiv.2201.06719" (arXiv registers one for every paper). */
export function arxivDoi(id: string): string {
  return `10.48550/arxiv.${id.replace(/v\d+$/, '').toLowerCase()}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A DOI as found at the end of a path: the views and file extensions publishers add taken off, lower case. */
function trimmed(doi: string, host: string): string {
  // A session id or a fragment after the DOI; a SICI DOI's own ";2-K" stays.
  let text = doi.replace(/;jsessionid=.*$|#.*$/i, '');
  for (;;) {
    const before = text;
    text = text
      .replace(TRAILING_VIEW, '')
      .replace(TRAILING_EXTENSION, '')
      .replace(/[/.]+$/, '');
    if (RXIV_HOST.test(host)) text = text.replace(RXIV_VERSION, '$1');
    if (text === before) return text.toLowerCase();
  }
}

/** The arXiv identifier an arxiv.org link names (/abs/…, /pdf/…, /html/…), without its version. */
export function arxivIdOfLink(link: string | null | undefined): string | undefined {
  const url = parsed(link);
  if (!url || !/(?:^|\.)arxiv\.org$/i.test(url.hostname)) return undefined;
  const path = decoded(url.pathname).replace(/\.pdf$/i, '');
  const match = /^\/(?:abs|pdf|html|format)\/(.+)$/.exec(path);
  const id = match && ARXIV_ID.exec(match[1] ?? '')?.[1];
  return id ?? undefined;
}

function parsed(link: string | null | undefined): URL | undefined {
  if (!link) return undefined;
  try {
    return new URL(link);
  } catch {
    return undefined;
  }
}

/**
 * The DOI a result's link carries, lower case, or undefined: a doi.org link's, an arXiv identifier's
 * (DataCite's `10.48550/arxiv.…`), Nature's article id's (`10.1038/…`), a `doi=` or `id=` parameter's, or
 * one in the page's path. A candidate for the matcher, never a match by itself.
 */
export function doiOfLink(link: string | null | undefined): string | undefined {
  const url = parsed(link);
  if (!url) return undefined;
  const host = url.hostname;
  const path = decoded(url.pathname);
  if (DOI_HOST.test(host)) {
    const doi = path.replace(/^\/+/, '');
    return WHOLE_DOI.test(doi) ? trimmed(doi, host) : undefined;
  }
  const arxiv = arxivIdOfLink(link);
  if (arxiv) return arxivDoi(arxiv);
  const nature = NATURE_HOST.test(host) ? /^\/articles\/([a-z0-9.-]+?)(?:\.pdf)?$/i.exec(path)?.[1] : undefined;
  if (nature) return `10.1038/${nature.toLowerCase()}`;
  for (const name of ['doi', 'id']) {
    const value = url.searchParams.get(name)?.trim().replace(/^doi:/i, '');
    if (value && WHOLE_DOI.test(value)) return trimmed(value, host);
  }
  const inPath = DOI_START.exec(path)?.[1];
  return inPath ? trimmed(inPath, host) : undefined;
}
