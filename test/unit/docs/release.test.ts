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

  it('lists every endpoint of the route table, and the MCP endpoint, in the release that added it', () => {
    const released = changelog.slice(releases[0]?.index ?? 0);
    expect(ROUTES.filter((route) => !released.includes(`\`${route.path}\``)).map((route) => route.path)).toEqual([]);
    expect(released).toContain('`POST /mcp`');
  });
});

describe('the Node.js versions', () => {
  it('recommend the Lambda runtime’s (.nvmrc), and admit it and Node 20.11 or later (engines)', () => {
    // Read from the source rather than imported: loading aws-cdk-lib takes seconds.
    const major = /export const RUNTIME = lambda\.Runtime\.NODEJS_(\d+)_X;/.exec(read('infra/api-function.ts'))?.[1];
    expect(major, 'RUNTIME in infra/api-function.ts').toBeDefined();
    expect(read('.nvmrc').trim()).toBe(major);
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`^20.11.0 || >=${major}.0.0`);
    expect(read('README.md')).toContain(`Needs Node.js ${major}, the version the functions run on in Lambda`);
  });
});
