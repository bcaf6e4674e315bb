/**
 * The part of citeproc-js (the CSL processor @citation-js/plugin-csl depends on; it ships no types)
 * that lib/citations/render/render.ts and style-engines.ts use.
 */
declare module 'citeproc' {
  interface CiteprocSys {
    retrieveLocale(lang: string): unknown;
    retrieveItem(id: string): unknown;
  }
  /** [bibliography metadata, one formatted entry per item]; false when the style has no bibliography. */
  type Bibliography = [{ entry_ids: string[][] }, string[]] | false;
  export class Engine {
    constructor(sys: CiteprocSys, style: string, lang?: string, forceLang?: boolean);
    /** `mode`: the output format last set with setOutputFormat. */
    opt: { development_extensions: Record<string, boolean>; mode: string };
    setOutputFormat(format: 'text' | 'html' | 'rtf'): void;
    updateItems(ids: string[]): void;
    makeBibliography(): Bibliography;
    /** The in-text citation (a note, for a note style) of the items, formatted. */
    makeCitationCluster(items: { id: string }[]): string;
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
