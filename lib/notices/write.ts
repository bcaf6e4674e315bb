/**
 * `npm run notices`: writes THIRD-PARTY-NOTICES.md from the installed production dependencies
 * (render.ts). Refuses, naming each, while a package's licence is not accepted (licences.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { licenceProblems } from './licences.js';
import { productionPackages } from './packages.js';
import { NOTICES_FILE, renderNotices } from './render.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = productionPackages(root);
const problems = licenceProblems(packages);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
writeFileSync(join(root, NOTICES_FILE), renderNotices(packages));
console.log(`Wrote ${NOTICES_FILE} (${packages.length} packages)`);
