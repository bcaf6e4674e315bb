/**
 * Writes the CSL style pack, lib/citations/render/styles/pack/: every style of the official CSL styles repository
 * (independent and dependent) and every CSL locale, as data files the deployed function reads at run time
 * (see lib/citations/render/style-catalogue.ts), not as code the bundler carries.
 *
 *   npx tsx lib/citations/render/styles/pack-write.ts <styles-dir> <locales-dir>
 *
 * Each directory is a checkout (a work tree, or a bare git repository such as `git clone --bare` makes,
 * whose HEAD is then read with `git archive`) of https://github.com/citation-style-language/styles and
 * https://github.com/citation-style-language/locales. The commit and date of each come from git; for a plain
 * directory without git, give them as `--styles-commit=<sha> --styles-date=<YYYY-MM-DD>` (and `--locales-…`).
 *
 * Output (reproducible: the same input gives byte-identical files; everything is sorted):
 * - styles-00.bin, styles-01.bin, …: brotli-compressed bodies, one after another, unchanged byte for byte:
 *   the independent styles (by id), the locales (by tag), then the pinned styles and locales the renderer
 *   uses; a part is closed before it would pass PART_BYTES (under 1 MiB: no tracked file is larger).
 * - pack.json: the source commits, and the [part, offset, length] of each locale and pinned text.
 * - catalogue.json.br: brotli JSON: every style's metadata in columns (a dependent's with its parent and no
 *   body), and the [part, offset, length] of each body (pack-format.ts, `toColumns`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import {
  byCodeUnit,
  PACK_VERSION,
  PART_BYTES,
  type PackedStyle,
  type PackIndex,
  partFile,
  type Span,
  toColumns,
} from './pack-format.js';

export const PINNED_STYLES = ['mla', 'chicago', 'apa', 'harvard1', 'vancouver'] as const;
export const PINNED_LOCALES = ['en-US', 'en-GB'] as const;

const STYLE_URL = /^https?:\/\/www\.zotero\.org\/styles\/([^/?#\s]+)\/?$/;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text content of an XML element: the five named entities and numeric references decoded, trimmed. */
export function xmlText(raw: string): string {
  return raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The attributes of one start tag (`<name a="1" b='2'/>`), entities decoded. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out[m[1] as string] = xmlText(m[2] ?? m[3] ?? '');
  }
  return out;
}

/** The metadata of one style file (`<style>` attributes and `<info>`), comments ignored. */
export function styleMetadata(id: string, xml: string): Omit<PackedStyle, 'body'> & { parent_url?: string } {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '');
  const styleTag = /<style\b[^>]*>/.exec(text)?.[0];
  if (!styleTag) throw new Error(`${id}: no <style> element`);
  const info = /<info\b[^>]*>([\s\S]*?)<\/info>/.exec(text)?.[1];
  if (info === undefined) throw new Error(`${id}: no <info> element`);
  const element = (name: string) => {
    const m = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`).exec(info);
    return m ? xmlText(m[1] as string) : undefined;
  };
  const title = element('title');
  if (!title) throw new Error(`${id}: no <title>`);
  const fields = new Set<string>();
  let citationFormat: string | undefined;
  for (const m of info.matchAll(/<category\b[^>]*>/g)) {
    const a = attributes(m[0]);
    if (a.field) fields.add(a.field);
    if (a['citation-format'] && !citationFormat) citationFormat = a['citation-format'];
  }
  let parentUrl: string | undefined;
  for (const m of info.matchAll(/<link\b[^>]*>/g)) {
    const a = attributes(m[0]);
    if (a.rel === 'independent-parent' && a.href) parentUrl = a.href;
  }
  const style: Omit<PackedStyle, 'body'> & { parent_url?: string } = {
    id,
    title,
    fields: [...fields].sort(),
    citation_format: citationFormat ?? '',
  };
  const titleShort = element('title-short');
  if (titleShort) style.title_short = titleShort;
  const defaultLocale = attributes(styleTag)['default-locale'];
  if (defaultLocale) style.default_locale = defaultLocale;
  if (parentUrl) style.parent_url = parentUrl;
  return style;
}

function compress(body: Buffer): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

interface Checkout {
  dir: string;
  commit: string;
  date: string;
  cleanup?: () => void;
}

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).trim();
}

/** A readable tree of a repository: the directory itself, or HEAD of a bare repository extracted to a temp dir. */
function checkout(dir: string, name: 'styles' | 'locales', flags: Record<string, string>): Checkout {
  const isBare = existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'));
  let commit = flags[`${name}-commit`];
  let date = flags[`${name}-date`];
  if (!commit || !date) {
    try {
      const gitArgs = isBare ? ['--git-dir', dir] : ['-C', dir];
      // a plain directory inside some other work tree is not a checkout of the repository
      if (!isBare && realpathSync(git([...gitArgs, 'rev-parse', '--show-toplevel'])) !== realpathSync(dir)) {
        throw new Error('not the top of a work tree');
      }
      const [c, d] = git([...gitArgs, 'log', '-1', '--format=%H %cs', 'HEAD']).split(' ');
      commit ||= c;
      date ||= d;
    } catch {
      // not a git checkout: the flags are needed
    }
  }
  if (!commit || !date) throw new Error(`${dir}: not a git checkout; give --${name}-commit and --${name}-date`);
  if (!isBare) return { dir, commit, date };
  const tmp = mkdtempSync(join(tmpdir(), `csl-${name}-`));
  const tar = execFileSync('git', ['--git-dir', dir, 'archive', commit], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['x', '-C', tmp], { input: tar });
  return { dir: tmp, commit, date, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

/** The pinned style and locale files of this folder, by the name the renderer knows them by. */
export const PINNED_FILES = {
  styles: { mla: 'modern-language-association.csl', chicago: 'chicago-notes-bibliography.csl' },
  locales: { 'en-GB': 'locales-en-GB.xml' },
} as const;

/**
 * The five formats' texts, pinned: MLA, Chicago and the en-GB locale from the files of this folder, APA,
 * Harvard (harvard1), Vancouver and the en-US locale as @citation-js/plugin-csl 0.8.2 bundles them.
 */
async function pinnedTexts(): Promise<{ styles: Record<string, string>; locales: Record<string, string> }> {
  const require = createRequire(import.meta.url);
  const bundledStyles = require('@citation-js/plugin-csl/lib/styles.json') as Record<string, string>;
  const bundledLocales = require('@citation-js/plugin-csl/lib/locales.json') as Record<string, string>;
  const file = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  const styles: Record<string, string | undefined> = {
    mla: file(PINNED_FILES.styles.mla),
    chicago: file(PINNED_FILES.styles.chicago),
    apa: bundledStyles.apa,
    harvard1: bundledStyles.harvard1,
    vancouver: bundledStyles.vancouver,
  };
  const locales: Record<string, string | undefined> = {
    'en-US': bundledLocales['en-US'],
    'en-GB': file(PINNED_FILES.locales['en-GB']),
  };
  for (const [kind, texts] of [
    ['style', styles],
    ['locale', locales],
  ] as const) {
    for (const [name, text] of Object.entries(texts)) {
      if (typeof text !== 'string' || !text) throw new Error(`pinned ${kind} ${name} not found`);
    }
  }
  return { styles: styles as Record<string, string>, locales: locales as Record<string, string> };
}

export async function writePack(stylesArg: string, localesArg: string, outDir: string, flags: Record<string, string> = {}) {
  const stylesCo = checkout(stylesArg, 'styles', flags);
  const localesCo = checkout(localesArg, 'locales', flags);
  try {
    const parts: Buffer[][] = [[]];
    let offset = 0;
    const append = (body: Buffer): Span => {
      const packed = compress(body);
      if (packed.length > PART_BYTES) throw new Error(`a body of ${packed.length} bytes does not fit in a part`);
      if (offset + packed.length > PART_BYTES) {
        parts.push([]);
        offset = 0;
      }
      (parts.at(-1) as Buffer[]).push(packed);
      const span: Span = [parts.length - 1, offset, packed.length];
      offset += packed.length;
      return span;
    };
    const cslIds = (dir: string) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.csl'))
        .map((f) => f.slice(0, -4))
        .sort(byCodeUnit);

    const styles = new Map<string, PackedStyle>();
    const independentIds = cslIds(stylesCo.dir);
    for (const id of independentIds) {
      const body = readFileSync(join(stylesCo.dir, `${id}.csl`));
      const { parent_url, ...meta } = styleMetadata(id, body.toString('utf8'));
      if (parent_url) throw new Error(`${id}: an independent style with an independent-parent link`);
      styles.set(id, { ...meta, body: append(body) });
    }
    const dependentIds = cslIds(join(stylesCo.dir, 'dependent'));
    const problems: string[] = [];
    const dependents: PackedStyle[] = [];
    for (const id of dependentIds) {
      const { parent_url, ...meta } = styleMetadata(id, readFileSync(join(stylesCo.dir, 'dependent', `${id}.csl`), 'utf8'));
      const parent = parent_url ? STYLE_URL.exec(parent_url)?.[1] : undefined;
      const parentStyle = parent ? styles.get(parent) : undefined;
      if (!parent || !parentStyle) {
        problems.push(`dependent ${id}: parent ${parent_url ?? '(none)'} is not an independent style; left out`);
        continue;
      }
      if (styles.has(id)) {
        problems.push(`dependent ${id}: the id of an independent style too; left out`);
        continue;
      }
      dependents.push({
        ...meta,
        citation_format: meta.citation_format || parentStyle.citation_format,
        parent,
      });
    }
    for (const d of dependents) styles.set(d.id, d);

    const localeTags = readdirSync(localesCo.dir)
      .map((f) => /^locales-(.+)\.xml$/.exec(f)?.[1])
      .filter((t): t is string => t !== undefined)
      .sort(byCodeUnit);
    const locales: Record<string, Span> = {};
    for (const tag of localeTags) locales[tag] = append(readFileSync(join(localesCo.dir, `locales-${tag}.xml`)));
    const manifest = JSON.parse(readFileSync(join(localesCo.dir, 'locales.json'), 'utf8')) as {
      'primary-dialects': Record<string, string>;
    };
    const primary: Record<string, string> = {};
    for (const lang of Object.keys(manifest['primary-dialects']).sort(byCodeUnit)) {
      primary[lang] = manifest['primary-dialects'][lang] as string;
    }

    const texts = await pinnedTexts();
    const pinned: PackIndex['pinned'] = { styles: {}, locales: {} };
    for (const name of PINNED_STYLES) pinned.styles[name] = append(Buffer.from(texts.styles[name] as string, 'utf8'));
    for (const lang of PINNED_LOCALES) pinned.locales[lang] = append(Buffer.from(texts.locales[lang] as string, 'utf8'));

    const index: PackIndex = {
      version: PACK_VERSION,
      source: {
        styles_commit: stylesCo.commit,
        styles_date: stylesCo.date,
        locales_commit: localesCo.commit,
        locales_date: localesCo.date,
      },
      locales,
      primary_dialects: primary,
      pinned,
    };
    const bins = parts.map((chunks) => Buffer.concat(chunks));
    const json = writePackFiles(
      outDir,
      index,
      [...styles.values()].sort((a, b) => byCodeUnit(a.id, b.id)),
      bins,
    );
    return {
      independent: independentIds.length,
      dependent: dependents.length,
      locales: localeTags.length,
      parts: bins.map((bin) => bin.length),
      catalogueBr: json.length,
      problems,
    };
  } finally {
    stylesCo.cleanup?.();
    localesCo.cleanup?.();
  }
}

/**
 * Writes pack.json, catalogue.json.br and the parts into `outDir` (a pack written before, with other parts,
 * leaves none behind); answers catalogue.json.br's bytes.
 */
export function writePackFiles(
  outDir: string,
  index: PackIndex,
  styles: readonly PackedStyle[],
  bins: readonly Buffer[],
): Buffer {
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(outDir)) if (/^styles(-\d+)?\.bin$/.test(file)) rmSync(join(outDir, file));
  const json = compress(Buffer.from(JSON.stringify(toColumns(styles)), 'utf8'));
  for (const [n, bin] of bins.entries()) writeFileSync(join(outDir, partFile(n)), bin);
  writeFileSync(join(outDir, 'catalogue.json.br'), json);
  writeFileSync(join(outDir, 'pack.json'), `${JSON.stringify(index)}\n`);
  return json;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const flags = Object.fromEntries(
    process.argv
      .slice(2)
      .filter((a) => a.startsWith('--') && a.includes('='))
      .map((a) => [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
  const [stylesDir, localesDir] = positional;
  if (!stylesDir || !localesDir) {
    console.error('usage: npx tsx lib/citations/render/styles/pack-write.ts <styles-dir> <locales-dir>');
    process.exit(2);
  }
  const result = await writePack(stylesDir, localesDir, fileURLToPath(new URL('./pack/', import.meta.url)), flags);
  for (const p of result.problems) console.warn(p);
  console.log(JSON.stringify({ ...result, problems: result.problems.length }));
}
