/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and
 * by file (a package of node_modules, a file of the project, a Node
 * internal module, or V8's own entries such as the garbage collector), as
 * shares of the time the process was not idle.
 *
 *   tsx scripts/bench/cpuprofile.ts PROFILE.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../tools.js';

/** The parts of the `.cpuprofile` format this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface Share {
  name: string;
  selfMs: number;
  /** Percent of the busy (not idle) time. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  byFunction: Share[];
  byFile: Share[];
}

/** Where a function lives, shortened: `pkg` for node_modules/pkg, a project-relative path, `node:module`, or `(v8 entry)`. */
export function fileOf(url: string, root = projectRoot): string {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = path.slice(modules + '/node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  if (path.startsWith(root)) return path.slice(root.length).replace(/^\/+/, '');
  if (path.startsWith('node:')) return path.split('/').slice(0, 2).join('/');
  return path;
}

/** A function's file, shortened: the path inside node_modules or inside the project. */
function where(url: string, root: string): string {
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  return path.startsWith(root) ? path.slice(root.length).replace(/^\/+/, '') : path;
}

/** Self time per node: each sample's time delta goes to the node sampled. */
export function summarise(profile: CpuProfile, root = projectRoot): ProfileSummary {
  const selfMicros = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  if (samples.length) {
    for (let i = 0; i < samples.length; i++) {
      selfMicros.set(samples[i]!, (selfMicros.get(samples[i]!) ?? 0) + Math.max(0, deltas[i] ?? 0));
    }
  } else {
    // Without samples: hit counts, spread evenly over the profile's span.
    const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
    const each = (profile.endTime - profile.startTime) / hits;
    for (const node of profile.nodes) selfMicros.set(node.id, (node.hitCount ?? 0) * each);
  }
  let idle = 0;
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    if (!micros) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += micros;
      continue;
    }
    const file = fileOf(url, root);
    const name = `${functionName || '(anonymous)'} ${url ? `${where(url, root)}:${lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const group = url ? file : functionName;
    files.set(group, (files.get(group) ?? 0) + micros);
  }
  const busy = [...functions.values()].reduce((sum, micros) => sum + micros, 0);
  const ranked = (map: Map<string, number>): Share[] =>
    [...map]
      .map(([name, micros]) => ({ name, selfMs: micros / 1000, percent: busy ? (100 * micros) / busy : 0 }))
      .sort((a, b) => b.selfMs - a.selfMs);
  return { busyMs: busy / 1000, idleMs: idle / 1000, byFunction: ranked(functions), byFile: ranked(files) };
}

/** The summary as text: the top `top` files and functions. */
export function formatSummary(summary: ProfileSummary, top = 20): string {
  const line = (share: Share) =>
    `${share.percent.toFixed(1).padStart(5)}%  ${share.selfMs.toFixed(0).padStart(6)} ms  ${share.name}`;
  return [
    `busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms`,
    'self time by file or package:',
    ...summary.byFile.slice(0, top).map(line),
    'self time by function:',
    ...summary.byFunction.slice(0, top).map(line),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx scripts/bench/cpuprofile.ts PROFILE.cpuprofile [top]');
    process.exit(2);
  }
  console.log(formatSummary(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), Number(top ?? 20)));
}
