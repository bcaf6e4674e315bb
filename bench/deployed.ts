/**
 * What a function deploys: every file of its asset folder (the bundle, its source map and any data copied
 * beside it, such as the CSL style pack of the functions that read it; infra/bundling.ts), unzipped and as
 * the zip the CDK CLI uploads. The zip's size is computed, not packed: each file deflated (zlib's default
 * level, as the CLI's zip library does) plus the zip format's headers, which comes within a few hundred
 * bytes of the real archive.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deflateRawSync } from 'node:zlib';

export interface DeployedBytes {
  /** The bundle itself (index.mjs). */
  code: number;
  /** Its source map (index.mjs.map), deployed beside it. */
  map: number;
  /** Every other file of the asset: data read at run time (the style pack). */
  beside: number;
  /** All of it, unzipped: what Lambda's 250 MB limit counts. */
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
