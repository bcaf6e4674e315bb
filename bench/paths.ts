/** Where the benchmark builds, shared by the processes that write and read the bundles. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

// Inside node_modules, so that a bundle leaving a package external still resolves it as deployed code would.
export const BUILD_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'search-citation-api-bench');

/** The baseline bundle's name in every table. */
export const EMPTY_HANDLER = 'empty-handler';
