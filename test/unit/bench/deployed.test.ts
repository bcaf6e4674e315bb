import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type DeployedBytes, deployedBytes, deployedZipTotal, unzippedWithLayers } from '../../../bench/deployed.js';

const dir = mkdtempSync(join(tmpdir(), 'deployed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bytes a function deploys (bench/deployed.ts)', () => {
  it('counts the bundle, its map and what lies beside them, and the zip of all of it with its headers', () => {
    const code = Buffer.from('export const handler = async () => ({ statusCode: 200 });\n'.repeat(200));
    const map = Buffer.from('{"version":3}');
    // Compressed data, as the style pack is: deflate cannot shrink it.
    const pack = randomBytes(50_000);
    mkdirSync(join(dir, 'styles', 'pack'), { recursive: true });
    writeFileSync(join(dir, 'index.mjs'), code);
    writeFileSync(join(dir, 'index.mjs.map'), map);
    writeFileSync(join(dir, 'styles', 'pack', 'styles-00.bin'), pack);
    const bytes = deployedBytes(dir);
    expect(bytes).toMatchObject({
      code: code.length,
      map: map.length,
      beside: pack.length,
      unzipped: code.length + map.length + pack.length,
      files: 3,
    });
    const names = ['index.mjs', 'index.mjs.map', 'styles/pack/styles-00.bin'].reduce((sum, name) => sum + name.length, 0);
    const deflated = [code, map, pack].reduce((sum, file) => sum + deflateRawSync(file).length, 0);
    // 30 + 16 + 46 bytes of headers a file, its name twice, and the 22-byte end record.
    expect(bytes.zip).toBe(deflated + 3 * 92 + 2 * names + 22);
    // The repeated code shrinks; the random pack does not.
    expect(bytes.zip).toBeLessThan(bytes.unzipped);
    expect(bytes.zip).toBeGreaterThan(pack.length);
  });

  it('counts a layer’s files as data, the pack laid out as its layer holds it', () => {
    const layer = join(dir, 'layer');
    mkdirSync(join(layer, 'csl-style-pack'), { recursive: true });
    const part = randomBytes(20_000);
    writeFileSync(join(layer, 'csl-style-pack', 'styles-00.bin'), part);
    expect(deployedBytes(layer)).toMatchObject({ code: 0, map: 0, beside: part.length, unzipped: part.length, files: 1 });
  });
});

describe('functions and the layers they share (bench/deployed.ts)', () => {
  const bytes = (unzipped: number, zip: number): DeployedBytes => ({
    code: unzipped,
    map: 0,
    beside: 0,
    unzipped,
    zip,
    files: 1,
  });
  const layers = { 'style-pack': bytes(7_000, 6_900), other: bytes(300, 200) };
  const citeSearch = { deployed: bytes(700, 250), layers: ['style-pack'] };
  const citeStyles = { deployed: bytes(100, 40), layers: ['style-pack'] };
  const webSearch = { deployed: bytes(110, 45), layers: [] };

  it('counts each layer once in the zips a set of functions deploys, however many functions use it', () => {
    expect(deployedZipTotal([citeSearch, citeStyles, webSearch], layers)).toBe(250 + 40 + 45 + 6_900);
    expect(deployedZipTotal([webSearch], layers)).toBe(45);
    expect(deployedZipTotal([citeSearch, { deployed: bytes(1, 1), layers: ['style-pack', 'other'] }], layers)).toBe(
      250 + 1 + 6_900 + 200,
    );
  });

  it('counts a function’s own files and every layer it uses against the 250 MB unzipped quota', () => {
    expect(unzippedWithLayers(citeSearch, layers)).toBe(700 + 7_000);
    expect(unzippedWithLayers(webSearch, layers)).toBe(110);
    expect(() => unzippedWithLayers({ deployed: bytes(1, 1), layers: ['missing'] }, layers)).toThrow(/no layer missing/);
  });
});
