import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');

/** The project's own documentation: the README, the pages of `docs/`, the benchmarks' figures, the contributors' guide. */
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file)),
];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative links of a document (outside fenced code), as `path#anchor` strings. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^ *```[\s\S]*?^ *```$/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target));
}

describe('the documentation links', () => {
  it.each(documents)('in %s reach an existing file and heading', (document) => {
    const markdown = readFileSync(path.join(root, document), 'utf8');
    const broken = relativeLinks(markdown).filter((link) => {
      const [target = '', anchor] = link.split('#');
      const file =
        target === '' ? path.join(root, document) : path.resolve(path.dirname(path.join(root, document)), target);
      if (!existsSync(file)) return true;
      if (anchor === undefined) return false;
      return !statSync(file).isFile() || !headingAnchors(readFileSync(file, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});
