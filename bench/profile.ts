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
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  const functions = new Map<string, { name: string; where: string; us: number }>();
  const packages = new Map<string, number>();
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
  };
}

/** The summary as lines for the terminal. */
export function formatProfile(summary: ProfileSummary): string {
  const lines = [`CPU profile: ${summary.totalMs.toFixed(0)} ms sampled`, '  by package:'];
  for (const p of summary.packages)
    lines.push(`    ${p.share.toFixed(1).padStart(5)}%  ${p.ms.toFixed(0).padStart(6)} ms  ${p.name}`);
  lines.push('  by function (self time):');
  for (const f of summary.functions) {
    lines.push(`    ${f.share.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}  ${f.where}`);
  }
  return lines.join('\n');
}
