import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { deployedBytes } from '../../../bench/deployed.js';

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
});
