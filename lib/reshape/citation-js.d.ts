/** The part of citation-js (which ships no type declarations) that the exports use. */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    /** Output in a registered format: 'bibtex', 'ris', 'data' (CSL-JSON text)… */
    format(name: string, options?: Record<string, unknown>): string;
    /** The parsed records, as CSL-JSON items. */
    data: Record<string, unknown>[];
  }
  /** The plugin registry: a plugin's formats and configuration, under its name ("@bibtex"). */
  export const plugins: {
    add(ref: string, plugin: { input?: unknown; output?: unknown; config?: unknown }): void;
    config: { get(name: string): unknown };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
