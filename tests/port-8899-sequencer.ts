/**
 * The order vitest hands test files to its two workers. The files that hold port 8899 (the
 * `port-8899` project) run in the same group as the rest, so they overlap with it, but only one of
 * them can hold the port at a time (a second one waits for it: tests/support/test-port.ts). This
 * order keeps them from meeting: it plays the run through on two workers with each file's last
 * duration (vitest's cache; unknown files count as DEFAULT_DURATION_MS), giving a free worker the
 * longest port file when the port is free, else the longest other file. A file that takes longer
 * than last time only makes the next port file wait; it never shares the port.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const PORT_8899_PROJECT = 'port-8899';
const WORKERS = 2;
const DEFAULT_DURATION_MS = 10_000;

export class Port8899Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Longest first (failed first), vitest's own order; then interleaved by the simulation.
    const sorted = await super.sort(files);
    const duration = (spec: TestSpecification): number => this.ctx.cache.getTestSpecificationResult(spec)?.duration ?? DEFAULT_DURATION_MS;
    const holdsPort = (spec: TestSpecification): boolean => spec.project.name === PORT_8899_PROJECT;
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of sorted) {
      const order = spec.project.config.sequence.groupOrder;
      groups.set(order, [...(groups.get(order) ?? []), spec]);
    }
    return [...groups.keys()].sort((a, b) => a - b).flatMap((order) => interleave(groups.get(order)!, duration, holdsPort));
  }
}

function interleave(
  specs: TestSpecification[],
  duration: (spec: TestSpecification) => number,
  holdsPort: (spec: TestSpecification) => boolean,
): TestSpecification[] {
  const port = specs.filter(holdsPort);
  const rest = specs.filter((spec) => !holdsPort(spec));
  const freeAt = Array.from({ length: WORKERS }, () => 0);
  let portFreeAt = 0;
  const order: TestSpecification[] = [];
  while (port.length || rest.length) {
    const worker = freeAt.indexOf(Math.min(...freeAt));
    const now = freeAt[worker]!;
    const takePort = port.length > 0 && (portFreeAt <= now || rest.length === 0);
    const spec = takePort ? port.shift()! : rest.shift()!;
    const start = takePort ? Math.max(now, portFreeAt) : now;
    freeAt[worker] = start + duration(spec);
    if (takePort) portFreeAt = freeAt[worker]!;
    order.push(spec);
  }
  return order;
}
