/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and answers where the time went: self time per function
 * and per package, so that a missed target points at its cause without opening a profiler UI.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by function, largest first. */
  functions: { name: string; where: string; ms: number; share: number }[];
  /** Self time by package (or project directory), largest first. */
  packages: { name: string; ms: number; share: number }[];
  /**
   * Time by the nearest project file or package on the stack, Node's own work and system calls included
   * (a `write` is charged to the code that asked for it), largest first: where a hot spot can be fixed.
   */
  owners: { name: string; ms: number; share: number }[];
}

/** A project file (lib/…, functions/…) or a package, for the owner of a frame; undefined for Node's own. */
function ownerOf(url: string): string | undefined {
  const project = url.match(/\/((?:lib|functions|bench)\/[^?#]+)$/);
  if (project && !url.includes('/node_modules/')) return project[1];
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return modules && modules[1] !== 'tsx' ? modules[1] : undefined;
}

/** node_modules/<pkg> or the project directory a script belongs to; V8's own work by its pseudo-name. */
function packageOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1] as string;
  if (url.startsWith('node:')) return url;
  const project = url.match(/\/(lib|functions|bench|test)\/([^/]+)/);
  return project ? `${project[1]}/${project[2]}` : url;
}

export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  const functions = new Map<string, { name: string; where: string; us: number }>();
  const packages = new Map<string, number>();
  const owners = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    total += us;
    const name = frame.functionName || '(anonymous)';
    const where = frame.url
      ? `${frame.url.replace(/^file:\/\/.*?\/(node_modules|lib|functions|bench|test)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    if (frame.functionName !== '(idle)') {
      let owner: string | undefined;
      for (let at: number | undefined = id; at !== undefined && owner === undefined; at = parentOf.get(at)) {
        owner = ownerOf(byId.get(at)?.callFrame.url ?? '');
      }
      const key = owner ?? `(node) ${name}`;
      owners.set(key, (owners.get(key) ?? 0) + us);
    }
  }
  const share = (us: number) => Math.round((us / total) * 1000) / 10;
  return {
    totalMs: total / 1000,
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, ms: Math.round(f.us / 100) / 10, share: share(f.us) })),
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: share(us) })),
    owners: [...owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: share(us) })),
  };
}

/** The summary as lines for the terminal. */
export function formatProfile(summary: ProfileSummary): string {
  const lines = [`CPU profile: ${summary.totalMs.toFixed(0)} ms sampled`, '  by package:'];
  for (const p of summary.packages)
    lines.push(`    ${p.share.toFixed(1).padStart(5)}%  ${p.ms.toFixed(0).padStart(6)} ms  ${p.name}`);
  lines.push("  by owner (the nearest project file or package on the stack, Node's own work included):");
  for (const o of summary.owners)
    lines.push(`    ${o.share.toFixed(1).padStart(5)}%  ${o.ms.toFixed(0).padStart(6)} ms  ${o.name}`);
  lines.push('  by function (self time):');
  for (const f of summary.functions) {
    lines.push(`    ${f.share.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}  ${f.where}`);
  }
  return lines.join('\n');
}
