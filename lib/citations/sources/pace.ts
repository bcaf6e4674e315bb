/**
 * The free record sources' pace (Crossref, DataCite): each source keeps one pace for the whole deployment
 * when a pace table is configured, else for this process (lib/pace/, whose engine and stores this
 * re-exports for the sources and their tests). crossref.ts and datacite.ts each make theirs.
 */
export { notSentInTime, Pace, type Slot } from '../../pace/pace.js';
export { intervalMs, rateRule as rateWindow, retryAfterMs } from '../../pace/rules.js';
