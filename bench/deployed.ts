/**
 * What a function deploys: every file of its asset folder (the bundle, its source map and any data beside
 * it), unzipped and as the zip the CDK CLI uploads; and what a layer deploys (the CSL style pack's,
 * infra/style-pack-layer.ts), counted once however many functions use it. The zip's size is computed, not
 * packed: each file deflated (zlib's default level, as the CLI's zip library does) plus the zip format's
 * headers, which comes within a few hundred bytes of the real archive.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deflateRawSync } from 'node:zlib';

export interface DeployedBytes {
  /** The bundle itself (index.mjs). */
  code: number;
  /** Its source map (index.mjs.map), deployed beside it. */
  map: number;
  /** Every other file of the asset: data read at run time (a layer's files are all here). */
  beside: number;
  /** All of it, unzipped: with the layers a function uses, what Lambda's 250 MB quota counts. */
  unzipped: number;
  /** The deployment package: the asset folder as one zip. */
  zip: number;
  files: number;
}

// Per file: a local header (30 bytes), a data descriptor (16) and a central directory entry (46), the
// first and the last with the file's name; then the end of the central directory (22).
const LOCAL_HEADER = 30;
const DATA_DESCRIPTOR = 16;
const CENTRAL_ENTRY = 46;
const END_RECORD = 22;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The bytes of the asset folder `dir`, whose bundle is `index.mjs`. */
export function deployedBytes(dir: string): DeployedBytes {
  const bytes: DeployedBytes = { code: 0, map: 0, beside: 0, unzipped: 0, zip: END_RECORD, files: 0 };
  for (const file of filesUnder(dir)) {
    const name = relative(dir, file);
    const size = statSync(file).size;
    if (name === 'index.mjs') bytes.code += size;
    else if (name === 'index.mjs.map') bytes.map += size;
    else bytes.beside += size;
    bytes.unzipped += size;
    bytes.files += 1;
    const nameBytes = Buffer.byteLength(name);
    bytes.zip += LOCAL_HEADER + CENTRAL_ENTRY + DATA_DESCRIPTOR + 2 * nameBytes + deflateRawSync(readFileSync(file)).length;
  }
  return bytes;
}

/** A function's own asset and the names of the layers it uses. */
export interface DeployedFunction {
  deployed: DeployedBytes;
  layers: readonly string[];
}

function layerBytes(layers: Readonly<Record<string, DeployedBytes>>, name: string): DeployedBytes {
  const layer = layers[name];
  if (!layer) throw new Error(`no layer ${name}`);
  return layer;
}

/**
 * What Lambda's 250 MB unzipped quota counts for one function: its own files and those of every layer it
 * uses (AWS Lambda Developer Guide, "Lambda quotas": the deployment package's contents, layers included).
 */
export function unzippedWithLayers(fn: DeployedFunction, layers: Readonly<Record<string, DeployedBytes>>): number {
  return fn.deployed.unzipped + fn.layers.reduce((sum, name) => sum + layerBytes(layers, name).unzipped, 0);
}

/** The zips a set of functions deploys: each function's own, and each layer once, however many use it. */
export function deployedZipTotal(
  functions: readonly DeployedFunction[],
  layers: Readonly<Record<string, DeployedBytes>>,
): number {
  const used = new Set(functions.flatMap((fn) => fn.layers));
  return (
    functions.reduce((sum, fn) => sum + fn.deployed.zip, 0) +
    [...used].reduce((sum, name) => sum + layerBytes(layers, name).zip, 0)
  );
}
