/**
 * The production dependency closure as installed: from the project's `dependencies`, every package Node
 * would load, found in node_modules as Node resolves it (the nearest node_modules folder up from the
 * package asking), with the licence its package.json declares and the copyright lines of its licence file.
 * This is what the functions' bundles can hold (each holds only what it imports; the AWS SDK is left to
 * the Lambda runtime) and what `npm start` runs; development tools are not in it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

export interface InstalledPackage {
  name: string;
  version: string;
  /** The SPDX expression of its package.json's `license` (or the legacy `licenses` list, joined by OR). */
  licence: string;
  /** The copyright lines of its licence file, or else its author from package.json. */
  copyright: string[];
  /** Where it is installed, from the project root (`node_modules/…`). */
  path: string;
  /** Its licence file, read whole (for the packages whose terms the notice quotes). */
  licenceText?: string;
  /** Its NOTICE file, which the Apache License asks to be passed on with it. */
  noticeText?: string;
}

interface Manifest {
  name?: string;
  version?: string;
  license?: string | { type?: string };
  licenses?: { type?: string }[];
  author?: string | { name?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The folder Node loads `name` from when the package in `from` imports it, or undefined. */
function resolvePackage(root: string, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

function licenceOf(manifest: Manifest): string {
  if (typeof manifest.license === 'string') return manifest.license.trim();
  if (manifest.license?.type) return manifest.license.type.trim();
  const legacy = (manifest.licenses ?? []).map((entry) => entry.type).filter(Boolean);
  return legacy.length > 1 ? `(${legacy.join(' OR ')})` : (legacy[0] ?? '');
}

/** A copyright line: "Copyright …", "(c) 2020 …", "© …", but not the licence texts' own uses of the word. */
const COPYRIGHT_LINE = /^[\s#*>-]*(?:copyright\b(?!\s+(?:license|notice|holders?|owner|and\b|statement))|\(c\)\s*\d|©).*$/gim;
const TEMPLATE = /\[yyyy\]|\{yyyy\}|<year>|\[name of/i;

function copyrightLines(text: string): string[] {
  const lines = [...text.matchAll(COPYRIGHT_LINE)].map((match) => match[0].trim().replace(/\s+/g, ' '));
  return [...new Set(lines.filter((line) => !TEMPLATE.test(line)))];
}

function fileText(dir: string, pattern: RegExp): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort();
  if (files.length === 0) return undefined;
  return files.map((name) => readFileSync(join(dir, name), 'utf8').replace(/\r\n/g, '\n').trim()).join('\n\n');
}

function authorOf(manifest: Manifest): string | undefined {
  const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
  return author?.replace(/\s*[<(].*$/, '').trim() || undefined;
}

/**
 * The production dependencies installed under `root` (a folder with package.json and node_modules),
 * sorted by name and version. Throws when a dependency that must be there is not installed.
 */
export function productionPackages(root: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visit = (dir: string, manifest: Manifest) => {
    const wanted: [string, boolean][] = [
      ...Object.keys(manifest.dependencies ?? {}).map((name): [string, boolean] => [name, true]),
      ...Object.keys(manifest.optionalDependencies ?? {}).map((name): [string, boolean] => [name, false]),
      ...Object.keys(manifest.peerDependencies ?? {}).map((name): [string, boolean] => [
        name,
        !manifest.peerDependenciesMeta?.[name]?.optional,
      ]),
    ];
    for (const [name, required] of wanted) {
      const location = resolvePackage(root, dir, name);
      if (!location) {
        if (required) throw new Error(`${name}, a dependency of ${manifest.name ?? dir}, is not installed: run npm ci`);
        continue;
      }
      const path = relative(root, location);
      if (found.has(path)) continue;
      const dependency = readManifest(location);
      const licenceText = fileText(location, /^(licen[cs]e|copying)/i);
      const noticeText = fileText(location, /^notice/i);
      const lines = licenceText ? copyrightLines(licenceText) : [];
      const author = authorOf(dependency);
      found.set(path, {
        name: dependency.name ?? name,
        version: dependency.version ?? '',
        licence: licenceOf(dependency),
        copyright:
          lines.length > 0
            ? lines
            : [
                `(${licenceText ? 'its licence file names no holder' : 'no licence file in the package'}; author: ${author ?? 'not named'})`,
              ],
        path,
        ...(licenceText === undefined ? {} : { licenceText }),
        ...(noticeText === undefined ? {} : { noticeText }),
      });
      visit(location, dependency);
    }
  };
  visit(root, readManifest(root));
  // By code point, not by locale: the file must come out the same on every machine.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...found.values()].sort((a, b) => order(a.name, b.name) || order(a.version, b.version) || order(a.path, b.path));
}
