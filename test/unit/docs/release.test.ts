/**
 * A release a user can adopt: a licence in LICENSE and package.json (and the package no longer private),
 * and a CHANGELOG whose newest entry is the version package.json gives (which every answer carries in
 * `X-Api-Version`), listing every endpoint of the route table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../lib/routes.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; license?: string; private?: boolean };

describe('the licence', () => {
  it('is the MIT licence, in LICENSE and package.json, and the package is not private', () => {
    expect(pkg.license).toBe('MIT');
    expect(pkg.private).toBeUndefined();
    const licence = read('LICENSE');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} \S/);
    expect(licence).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
  });
});

describe('CHANGELOG.md', () => {
  const changelog = read('CHANGELOG.md');
  const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] — (\d{4}-\d{2}-\d{2})$/gm)];

  it('starts with the version package.json gives, dated', () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(releases[0]?.[1], 'the newest entry of CHANGELOG.md').toBe(pkg.version);
  });

  it('lists every endpoint of the route table, and the MCP endpoint', () => {
    const newest = changelog.slice(releases[0]?.index ?? 0, releases[1]?.index);
    expect(ROUTES.filter((route) => !newest.includes(`\`${route.path}\``)).map((route) => route.path)).toEqual([]);
    expect(newest).toContain('`POST /mcp`');
  });
});
