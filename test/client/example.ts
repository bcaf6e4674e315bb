/**
 * The README's client example, as a file the typecheck covers: a client generated from openapi.json
 * (openapi-typescript types, openapi-fetch calls) used outside the tests. Run it against `npm start`:
 * `API_URL=http://127.0.0.1:3000 API_KEY=demo-key npx tsx test/client/example.ts`.
 */
// README example: start
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const api = createClient<paths>({
  baseUrl: process.env.API_URL ?? 'http://127.0.0.1:3000',
  headers: { Authorization: `Bearer ${process.env.API_KEY}` },
});

// Typed from the document: a wrong path, a missing or mistyped field, an answer field that does not exist
// are compile errors (an extra body field is not: the API refuses it with a 400 naming it).
const { data, error, response } = await api.POST('/v1/cite/search', {
  body: { query: 'bananas', results: 5, format: 'APA' },
});
if (data) {
  for (const line of data.data.reference_list) console.log(line);
} else {
  // Branch on the code, never on the message (README, "Errors").
  console.error(response.status, error?.error.code, error?.error.details);
}
// README example: end
