/**
 * A speed-up of citeproc-js's style build, applied once before the first engine is built.
 *
 * citeproc inlines every macro where it is called, and finds each called macro by walking the whole
 * style tree again (`getNodesByName(root, 'macro', name)`). A large style calls macros thousands of
 * times: for Chicago 18th edition as published (237 KB of XML) those walks were 40 % of the engine's build
 * in a CPU profile; with the styles trimmed to one entry (render.ts), indexing still takes the five
 * builds from ~305 to ~265 ms on one core. Here the style's macros are indexed by name on the first such lookup, and each later one is
 * answered from the index: the same nodes, in the same order, as the walk would find (test/unit says so
 * for every macro of every shipped style). Only that exact call is answered from the index, and only
 * after citeproc's own preparation of the tree, which runs before any macro is expanded.
 */
import type CSL from 'citeproc';

interface XmlNode {
  name?: string;
  attrs?: Record<string, string>;
  children?: unknown[];
}

type GetNodesByName = (
  this: { dataObj: XmlNode },
  node: XmlNode,
  name: string,
  nameAttribute?: string,
  found?: XmlNode[],
) => XmlNode[];

const PATCHED = Symbol.for('search-citation-api.citeproc-macro-index');

export function indexMacroLookups(csl: typeof CSL): void {
  const xml = (csl as unknown as { XmlJSON?: { prototype: Record<string | symbol, unknown> } }).XmlJSON;
  // Another citeproc build (an XML DOM one) has no such method: it is then left as it is.
  if (!xml || typeof xml.prototype.getNodesByName !== 'function' || xml.prototype[PATCHED]) return;
  const walk = xml.prototype.getNodesByName as GetNodesByName;
  const indexes = new WeakMap<XmlNode, Map<string, XmlNode[]>>();
  const indexed: GetNodesByName = function (node, name, nameAttribute, found) {
    if (name !== 'macro' || !nameAttribute || found || node !== this.dataObj) {
      return walk.call(this, node, name, nameAttribute, found);
    }
    let byName = indexes.get(node);
    if (!byName) {
      byName = new Map();
      for (const macro of walk.call(this, node, 'macro')) {
        const key = macro.attrs?.name;
        if (key === undefined) continue;
        const list = byName.get(key);
        if (list) list.push(macro);
        else byName.set(key, [macro]);
      }
      indexes.set(node, byName);
    }
    // A fresh array each time, as the walk gives: callers may change it.
    return [...(byName.get(nameAttribute) ?? [])];
  };
  xml.prototype.getNodesByName = indexed;
  xml.prototype[PATCHED] = walk;
}

/** citeproc's own walk, for the test that compares the two. */
export function unindexedMacroLookup(csl: typeof CSL): GetNodesByName | undefined {
  const xml = (csl as unknown as { XmlJSON?: { prototype: Record<string | symbol, unknown> } }).XmlJSON;
  return xml?.prototype[PATCHED] as GetNodesByName | undefined;
}
