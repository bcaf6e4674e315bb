/**
 * The licences the project accepts in its production dependencies, and the text of each, which the
 * third-party notice prints once. A licence is accepted exactly when its text is here: adding one means
 * reading it, deciding it suits a self-hosted API that others deploy, and adding its text. A package under
 * any other licence fails the notice's test (test/unit/lib/notices.test.ts) and `npm run notices`, unless
 * it is listed below as an exception with the reason it is acceptable (docs/decisions.md, "Versions and
 * the licence").
 */

const MIT_WARRANTY = `THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

const ISC_WARRANTY = `THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH
REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND
FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT,
INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM
LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR
OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR
PERFORMANCE OF THIS SOFTWARE.`;

const BSD_CONDITIONS = `Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.`;

const BSD_WARRANTY = `THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.`;

/**
 * The accepted licences by SPDX id, each with its text without the copyright line (each package's own
 * copyright lines are listed with the package). Apache-2.0's text is long and the same everywhere: it is
 * read from a package that ships it (`apacheText`).
 */
export const ACCEPTED_LICENCES: Readonly<Record<string, { name: string; text: string | 'from-a-package' }>> = {
  MIT: {
    name: 'MIT License',
    text: `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

${MIT_WARRANTY}`,
  },
  'MIT-0': {
    name: 'MIT No Attribution',
    text: `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so.

${MIT_WARRANTY}`,
  },
  ISC: {
    name: 'ISC License',
    text: `Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

${ISC_WARRANTY}`,
  },
  '0BSD': {
    name: 'BSD Zero Clause License',
    text: `Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted.

${ISC_WARRANTY}`,
  },
  'BSD-2-Clause': {
    name: 'BSD 2-Clause "Simplified" License',
    text: `${BSD_CONDITIONS}

${BSD_WARRANTY}`,
  },
  'BSD-3-Clause': {
    name: 'BSD 3-Clause "New" or "Revised" License',
    text: `${BSD_CONDITIONS}

3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

${BSD_WARRANTY}`,
  },
  'Apache-2.0': { name: 'Apache License 2.0', text: 'from-a-package' },
};

/** Packages accepted under a licence that is not on the list, each with why. */
export const LICENCE_EXCEPTIONS: readonly { name: string; licence: string; reason: string }[] = [
  {
    name: 'citeproc',
    licence: 'CPAL-1.0 OR AGPL-1.0',
    reason:
      'citeproc-js, the reference CSL processor, renders every citation; there is no permissive one of its standing. Its terms and what they mean for a deployment are in the notice ("citeproc")',
  },
  {
    name: 'railroad-diagrams',
    licence: 'CC0-1.0',
    reason:
      "a public-domain dedication (no condition at all); it comes with nearley, which @retorquere/bibtex-parser (the reference check's BibTeX reader) lists, for nearley's railroad-diagram command, and no function's bundle holds it: the parser's code never imports nearley",
  },
];

/**
 * The accepted licences under which a package may be used, for its SPDX expression (`license` in its
 * package.json): the first acceptable alternative of an OR, every part of an AND. Null when there is no
 * acceptable choice: an unknown id, a `WITH` exception, "SEE LICENSE IN …", no licence at all.
 */
export function acceptedChoice(expression: string): string[] | null {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  // or := and ("OR" and)* ; and := atom ("AND" atom)* ; atom := "(" or ")" | id ("WITH" id)?
  const or = (): string[] | null => {
    let choice = and();
    while (tokens[at] === 'OR') {
      at += 1;
      const next = and();
      choice = choice ?? next;
    }
    return choice;
  };
  const and = (): string[] | null => {
    let choice = atom();
    while (tokens[at] === 'AND') {
      at += 1;
      const next = atom();
      choice = choice && next ? [...new Set([...choice, ...next])] : null;
    }
    return choice;
  };
  const atom = (): string[] | null => {
    const token = tokens[at++];
    if (token === '(') {
      const inner = or();
      return tokens[at++] === ')' ? inner : null;
    }
    if (tokens[at] === 'WITH') {
      at += 2;
      return null;
    }
    return token !== undefined && Object.hasOwn(ACCEPTED_LICENCES, token) ? [token] : null;
  };
  const choice = or();
  return at === tokens.length ? choice : null;
}

/** Why a package's licence is not acceptable, or undefined when it is. */
export function licenceProblem(pkg: { name: string; version: string; licence: string }): string | undefined {
  if (acceptedChoice(pkg.licence)) return undefined;
  if (LICENCE_EXCEPTIONS.some((exception) => exception.name === pkg.name && exception.licence === pkg.licence)) return undefined;
  return `${pkg.name}@${pkg.version}: ${pkg.licence || 'no licence'} is not an accepted licence (${Object.keys(ACCEPTED_LICENCES).join(', ')}); read it, then add its text to lib/notices/licences.ts or list the package as an exception with the reason`;
}

/** Every package of the list whose licence is not acceptable, each with why: empty when all are. */
export function licenceProblems(packages: readonly { name: string; version: string; licence: string }[]): string[] {
  return packages.flatMap((pkg) => licenceProblem(pkg) ?? []);
}
