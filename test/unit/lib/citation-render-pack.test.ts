/**
 * The five formats are rendered from pack.json and the parts alone (lib/citations/render/render.ts): this
 * file's process reads the style pack from a copy without catalogue.json.br, and the renderer answers as it
 * does from the whole pack. A renderer that loaded the catalogue (~1 MB of JSON, parsed on a new container's
 * first citation) would fail here.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EARLY_WARNING_CSL } from '../../fixtures/csl-items.js';

const pack = fileURLToPath(new URL('../../../lib/citations/render/styles/pack/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'style-pack-pinned-'));
for (const file of readdirSync(pack)) if (file !== 'catalogue.json.br') copyFileSync(join(pack, file), join(dir, file));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the citation renderer', () => {
  it('renders the five formats from a pack without its catalogue', async () => {
    // The configuration is read once, as the modules load: set before the renderer's first import here.
    process.env.STYLE_PACK_DIR = dir;
    const { citationRenderer } = await import('../../../lib/citations/render/render.js');
    const { loadCatalogue } = await import('../../../lib/citations/render/style-catalogue.js');
    await expect(loadCatalogue()).rejects.toThrow(/catalogue\.json\.br/);
    const rendered = (await citationRenderer()).render(EARLY_WARNING_CSL);
    expect(rendered.Chicago).toBe(
      'Boettiger, Carl, Noam Ross, and Alan Hastings. “Early Warning Signals: The Charted and Uncharted Territories.” Theoretical Ecology 6, no. 3 (2013): 255–64. https://doi.org/10.1007/s12080-013-0192-6.',
    );
    expect(Object.keys(rendered).sort()).toEqual(['APA', 'Chicago', 'Harvard', 'MLA', 'Vancouver']);
  }, 180_000);
});
