/**
 * Reads the documents' fenced code blocks and the shell commands in them, so that a test can run every
 * command a reader would copy. Shell words are read as a POSIX shell reads them for the few forms the
 * documents use (single and double quotes, a backslash before a newline or a character, `#` comments,
 * `&&`, `;` and `|` between commands); a word that would need the shell to expand something (`$VAR`,
 * `$(…)`, `<(…)`, `*`) is marked, so that a command depending on it is never run with a guess.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROJECT_ROOT = new URL('../../', import.meta.url).pathname;

/** The README and every guide under docs/, as paths from the project root. */
export function documentPaths(): string[] {
  const guides = readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

export const readDocument = (path: string): string => readFileSync(join(PROJECT_ROOT, path), 'utf8');

export interface FencedBlock {
  /** The document, from the project root. */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The info string's first word (`sh`, `ts`, `json`), or '' for none. */
  lang: string;
  /** The lines between the fences, with the fence's own indentation taken off. */
  text: string;
}

/** Every fenced block of a Markdown text, indented ones (in list items) included. */
export function fencedBlocks(file: string, markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3}|\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', lang = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? '';
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    blocks.push({ file, line: i + 1, lang, text: body.join('\n') });
    i = j;
  }
  return blocks;
}

export interface ShellCommand {
  /** The words as the shell passes them to the program. */
  argv: string[];
  /** The command as written, continuation lines joined, comment left off. */
  source: string;
  /** A word needs the shell to expand a variable, a command or a glob: the argv is not what would run. */
  expands: boolean;
  /** Joined to the one before by `&&`, `;` or `|` on the same line. */
  chained: boolean;
}

/** The commands of a shell block, one per line (or per `&&`/`;`/`|`), quotes that span lines kept whole. */
export function shellCommands(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let argv: string[] = [];
  let word: string | undefined;
  let expands = false;
  let chained = false;
  let start = 0;
  // Inside a function body (`name() { …; }`) a `;` or a newline does not end the command.
  let braces = 0;
  const endWord = () => {
    if (word !== undefined) argv.push(word);
    word = undefined;
  };
  const endCommand = (at: number, nextChained: boolean) => {
    endWord();
    if (argv.length > 0) {
      const source = text
        .slice(start, at)
        .replace(/\\\n\s*/g, '')
        .replace(/\s+#[^\n]*$/, '')
        .trim();
      commands.push({ argv, source, expands, chained });
    }
    argv = [];
    expands = false;
    chained = nextChained;
    start = at + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i++;
      if (next === '\n' || next === undefined) continue;
      word = (word ?? '') + next;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && '"\\$`'.includes(text[j + 1] ?? '')) value += text[++j];
        else {
          if (text[j] === '$' || text[j] === '`') expands = true;
          value += text[j];
        }
      }
      if (j >= text.length) throw new Error(`unterminated double quote in: ${text}`);
      word = (word ?? '') + value;
      i = j;
    } else if (c === '#' && word === undefined) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if ((c === '{' || c === '}') && word === undefined) {
      braces += c === '{' ? 1 : -1;
      expands = true;
      word = c;
    } else if ((c === '\n' || c === ';') && braces > 0) {
      endWord();
    } else if (c === '\n' || c === ';') {
      endCommand(i, c === ';');
    } else if ((c === '&' && text[i + 1] === '&') || (c === '|' && text[i + 1] === '|')) {
      endCommand(i, true);
      i++;
      start = i + 1;
    } else if (c === '|') {
      endCommand(i, true);
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else {
      if ('$`*?<>(){}'.includes(c)) expands = true;
      word = (word ?? '') + c;
    }
  }
  endCommand(text.length, false);
  return commands;
}
