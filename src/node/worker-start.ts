/**
 * Starts a worker thread on one of src/node/'s worker modules, wherever the
 * module starting it lies: in src/node/ (from source, under tsx, whose
 * loader is registered in the worker first), or in dist/ (one level below it
 * as a bundle chunk, two as dist/node/entries/'s modules).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const fromSource = import.meta.url.endsWith('.ts');

/** The worker module `name` (`csv-worker`), beside this module's folder's `node/`. */
function workerUrl(name: string): URL {
  const file = `node/${name}.${fromSource ? 'ts' : 'js'}`;
  const near = new URL(`../${file}`, import.meta.url);
  const far = new URL(`../../${file}`, import.meta.url);
  return near.protocol === 'file:' && !existsSync(fileURLToPath(near)) && existsSync(fileURLToPath(far)) ? far : near;
}

export function startWorker(name: string): Worker {
  const url = workerUrl(name);
  if (!fromSource) return new Worker(url);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true });
}
